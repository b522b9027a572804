import { randomUUID } from 'node:crypto';
import { METRICS, companyOfIntakeAddress, counted, formatCount, type InboundMailMessage } from '@portal/shared';
import type { Mailer } from '../adapters/email.js';
import type { Caller } from '../http/caller.js';
import type { Meter } from '../observability/meter.js';
import { readMessage, type MailDocument } from '../mail/attachments.js';
import {
  emailOf,
  refusalAnswer,
  resultAnswer,
  type DocumentResult,
  type MessageRefusal,
  type StoredAnswer,
} from '../mail/answers.js';
import type { FileIntakeOutcome, IncomingFiles } from './intake/intake-deps.js';
import { domainOf } from '../mail/verdicts.js';
import { JOB_LEASE_MS } from '../jobs/job-leases.js';
import {
  endMailFailed,
  mailResultKeyOf,
  type MailAbout,
  type MailFeed,
  type MailJobStore,
  type MailOutcome,
  type MailRecord,
} from '../mail/mail-job.js';

/** The caller an e-mail's documents are registered as: the sender's supplier account, signed in by e-mail. */
export type MailCaller = Caller & { readonly signIn: 'EMAIL' };

/** A supplier account whose address may send documents (found in the user pool by its e-mail). */
export interface SenderAccount {
  /** Cognito's Username (the sub of a password account). */
  readonly userId: string;
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly taxIds: readonly string[];
}

/** Thrown inside a run that lost its message's lease (another run took it over): it stops and leaves it to that one. */
class LeaseLostError extends Error {}

export interface InboundMailDeps {
  /** The raw messages under inbound-mail/ (null: already deleted). */
  readonly raw: {
    get(bucket: string, key: string): Promise<Buffer | null>;
    remove(bucket: string, key: string): Promise<void>;
  };
  readonly processed: MailJobStore;
  /** Takes one of the sender's answers of this hour; false when the hour's are spent. */
  readonly answerQuota: { take(sender: string, now: Date): Promise<boolean> };
  readonly senders: { find(email: string): Promise<SenderAccount | null> };
  /** Whether the RUC is a company of the group (the intake address names one). */
  readonly companies: { exists(taxId: string): Promise<boolean> };
  /** The RUCs of the XML's issuer and acquirer, or null when the XML cannot be read (the intake then tells why). */
  readonly partiesOf: (xml: Uint8Array) => { readonly supplier: string; readonly customer: string } | null;
  readonly fromFiles: (caller: MailCaller, files: IncomingFiles) => Promise<FileIntakeOutcome>;
  readonly mailer: Mailer;
  readonly feed: MailFeed;
  readonly clock: () => Date;
  readonly intakeDomain: string;
  readonly portalUrl: string | null;
  readonly log: {
    info(message: string, extra: Record<string, unknown>): void;
    warn(message: string, extra: Record<string, unknown>): void;
  };
  readonly meter: Meter;
  /** Runs a message may start before the one that fails ends it FAILED (the queue's deliveries). */
  readonly maxAttempts: number;
  /** @default JOB_LEASE_MS */
  readonly leaseMs?: number;
  /** The run's id, its lease's owner. @default a random UUID */
  readonly runId?: () => string;
}

/**
 * Invoices by e-mail (docs/adr/0035-mail-intake.md). One received message: unauthenticated mail is dropped unanswered;
 * an unknown sender, an address that is no company's intake address, or files refused whole are answered (at most a
 * few times per sender and hour) and nothing is stored; a registered supplier's documents are each registered as
 * 'Cargar XML' would, and the answer tells each one's fate. The raw message is deleted at the end; its record makes a
 * redelivery register and answer nothing again.
 *
 * A run holds the message's lease and renews it while it works (docs/intake-channels.md#lease-and-resume); each
 * document's result is recorded as soon as it is known. A run that stops lets the lease lapse, and the outbox sweeper
 * hands the message to a worker again, whose run resumes it: the documents recorded are skipped, one whose invoice was
 * committed but whose result was not finds its invoice again through its sourceKey, and the answer says it resumed.
 */
export function makeInboundMail(deps: InboundMailDeps) {
  const leaseMs = deps.leaseMs ?? JOB_LEASE_MS;

  /** Sends the answer once and deletes the raw copy: each step idempotent, so a redelivery repeats them harmlessly. */
  async function finish(message: InboundMailMessage, record: MailRecord): Promise<MailOutcome> {
    if (record.answer && !record.answered) {
      await deps.mailer.send(emailOf(record.answer));
      await deps.processed.markAnswered(record.messageId);
    }
    await deps.raw.remove(message.bucket, message.key);
    return record.outcome ?? 'FAILED';
  }

  /** The ended record, answered and cleaned up. */
  async function finishEnded(message: InboundMailMessage): Promise<MailOutcome | 'GONE'> {
    const ended = await deps.processed.get(message.messageId);
    return ended?.state === 'DONE' ? finish(message, ended) : 'GONE';
  }

  /**
   * Renews the run's lease every third of its length until stopped; `lost` once a renewal finds another run holds
   * it (a renewal that fails on DynamoDB is tried again at the next beat, the lease still holding meanwhile).
   */
  function holdLease(messageId: string, owner: string) {
    const state = { lost: false };
    const timer = setInterval(() => {
      const until = new Date(deps.clock().getTime() + leaseMs).toISOString();
      deps.processed.renew(messageId, owner, until).then(
        (held) => {
          if (!held) state.lost = true;
        },
        () => undefined,
      );
    }, leaseMs / 3);
    timer.unref();
    return { state, stop: () => clearInterval(timer) };
  }

  /** One run that holds the message's lease, from reading it to its outcome. */
  function runOf(message: InboundMailMessage, owner: string, resumed: boolean, lease: { readonly lost: boolean }) {
    async function conclude(outcome: MailOutcome, answer: StoredAnswer | null): Promise<MailOutcome> {
      if (!(await deps.processed.complete(message.messageId, { owner }, outcome, answer, deps.clock()))) {
        throw new LeaseLostError(`inbound e-mail ${message.messageId}: another run holds it now`);
      }
      deps.meter.count(METRICS.inboundMailProcessed, 1);
      if (outcome === 'UNAUTHENTICATED') deps.meter.count(METRICS.inboundMailUnauthenticated, 1);
      return finishEnded(message) as Promise<MailOutcome>;
    }

    /** An answer to a message not taken, within the sender's hourly quota. */
    async function refuse(
      from: string,
      subject: string,
      outcome: MailOutcome,
      refusal: MessageRefusal,
    ): Promise<MailOutcome> {
      deps.log.info('Inbound e-mail refused', { messageId: message.messageId, outcome, from });
      if (!(await deps.answerQuota.take(from, deps.clock()))) {
        deps.log.warn('Inbound e-mail refused without an answer: the sender has had its answers this hour', {
          messageId: message.messageId,
          from,
        });
        return conclude('RATE_LIMITED', null);
      }
      const answer = refusalAnswer({
        to: from,
        subject,
        refusal,
        intakeDomain: deps.intakeDomain,
        portalUrl: deps.portalUrl,
      });
      return conclude(outcome, answer);
    }

    async function resultOf(sender: SenderAccount, company: string, document: MailDocument): Promise<DocumentResult> {
      if (!document.ok) return { base: document.base, kind: 'REFUSED', message: document.message };
      const parties = deps.partiesOf(document.xml.bytes);
      const customer = parties?.customer ?? null;
      if (customer !== null && customer !== company) {
        return {
          base: document.base,
          kind: 'REFUSED',
          message:
            `El comprobante está emitido al RUC ${customer}, pero se envió a la dirección de recepción del RUC ` +
            `${company}. Envíelo a la dirección de la empresa a la que factura.`,
        };
      }
      // The account acts for the RUC that issued the document when it has several (as the company header chooses).
      const issuer = parties?.supplier ?? null;
      const caller: MailCaller = {
        sub: sender.userId,
        username: sender.userId,
        email: sender.email,
        firstName: sender.firstName,
        lastName: sender.lastName,
        level: 'SUPPLIER',
        taxIds: sender.taxIds,
        groups: [],
        activeCompany: issuer !== null && sender.taxIds.includes(issuer) ? issuer : sender.taxIds[0]!,
        expiresAt: 0,
        signIn: 'EMAIL',
        txId: message.messageId,
      };
      const outcome = await deps.fromFiles(caller, {
        sourceKey: `mail/${message.messageId}/${document.base}`,
        channel: 'EMAIL',
        xml: document.xml,
        ...(document.pdf ? { pdf: document.pdf } : {}),
        ...(document.cdr ? { cdr: document.cdr } : {}),
      });
      switch (outcome.outcome) {
        case 'ACCEPTED': {
          const { id, supplierId, type, clientName } = outcome.invoice;
          return {
            base: document.base,
            kind: 'ACCEPTED',
            invoice: { id, supplierId, type, clientName },
            cdrWarning: outcome.cdrWarning,
          };
        }
        case 'ALREADY_EXISTS':
          return {
            base: document.base,
            kind: 'ALREADY_EXISTS',
            invoiceId: outcome.invoiceId,
            message: outcome.message,
          };
        case 'REFUSED':
          return { base: document.base, kind: 'REFUSED', message: outcome.message };
      }
    }

    /** Each document registered in turn, its result recorded at once; those recorded by an earlier run are kept. */
    async function registerAll(
      sender: SenderAccount,
      company: string,
      documents: readonly MailDocument[],
    ): Promise<DocumentResult[]> {
      const recorded = await deps.processed.results(message.messageId);
      const results: DocumentResult[] = [];
      for (const document of documents) {
        const known = recorded.get(mailResultKeyOf(document.base));
        if (known) {
          results.push(known);
          continue;
        }
        if (lease.lost) throw new LeaseLostError(`inbound e-mail ${message.messageId}: another run holds it now`);
        const result = await resultOf(sender, company, document);
        await deps.processed.record(message.messageId, result, deps.clock());
        results.push(result);
      }
      return results;
    }

    return async (): Promise<MailOutcome | 'GONE'> => {
      const raw = await deps.raw.get(message.bucket, message.key);
      if (!raw) {
        deps.log.warn('Inbound e-mail gone before it was processed', { messageId: message.messageId });
        await conclude('FAILED', null);
        return 'GONE';
      }

      // Who sent it, as its headers say; only an authenticated From domain is believed, or answered.
      const read = await readMessage(raw);
      const from = read.from;
      if (!authenticated(message, from)) {
        deps.log.warn('Inbound e-mail dropped: its sender is not authenticated (SPF/DKIM)', {
          messageId: message.messageId,
          verdicts: message.verdicts,
        });
        return conclude('UNAUTHENTICATED', null);
      }
      const sender = await deps.senders.find(from!);
      if (!sender || sender.taxIds.length === 0) {
        return refuse(from!, read.subject, 'UNKNOWN_SENDER', { kind: 'UNKNOWN_SENDER' });
      }
      const envelope = message.envelopeSender;
      if (envelope !== undefined && envelope.toLowerCase() !== from!.toLowerCase()) {
        // A bounce (null reverse path) is never answered (RFC 3834 §2): it would answer a mail system, not a person.
        if (envelope === '') {
          deps.log.warn('Inbound e-mail dropped: it has no envelope sender', { messageId: message.messageId, from });
          return conclude('SENDER_MISMATCH', null);
        }
        const relayed = await deps.senders.find(envelope);
        if (!relayed || !relayed.taxIds.some((taxId) => sender.taxIds.includes(taxId))) {
          return refuse(from!, read.subject, 'SENDER_MISMATCH', { kind: 'SENDER_MISMATCH', envelope });
        }
      }
      const company = await companyOf(message.recipients);
      if (!company) return refuse(from!, read.subject, 'UNKNOWN_ADDRESS', { kind: 'UNKNOWN_ADDRESS' });
      if (read.refusal) {
        const { reason, detail } = read.refusal;
        return refuse(from!, read.subject, 'REFUSED_FILES', { kind: 'FILES', reason, detail });
      }

      // What the sweeper needs to answer the sender, should every run of this message stop.
      const about: MailAbout = {
        from: from!,
        subject: read.subject,
        userId: sender.userId,
        bases: read.documents.map((document) => document.base),
      };
      if (!(await deps.processed.describe(message.messageId, owner, about))) {
        throw new LeaseLostError(`inbound e-mail ${message.messageId}: another run holds it now`);
      }
      const results = await registerAll(sender, company, read.documents);
      const answer = resultAnswer({ to: from!, subject: read.subject, results, portalUrl: deps.portalUrl, resumed });
      const accepted = results.filter((result) => result.kind === 'ACCEPTED').length;
      await deps.feed.record([{ kind: 'USER', taxId: sender.userId }], {
        id: `mail-${message.messageId}`,
        registeredAt: deps.clock().toISOString(),
        message:
          `Se procesó su correo${read.subject ? ` «${read.subject}»` : ''}${resumed ? ' (reanudado tras una interrupción)' : ''}: ` +
          `${formatCount(accepted)} de ${counted(results.length, { one: 'comprobante registrado', other: 'comprobantes registrados' })}. Le enviamos el detalle por correo.`,
        reference: null,
        kind: 'MAIL_PROCESSED',
      });
      return conclude('REGISTERED', answer);
    };
  }

  return {
    /**
     * One delivery of the message. `lastAttempt`: the queue will not deliver it again, so a failure ends it FAILED
     * (the sender told what was registered). BUSY: another run holds it (if that run stops, the sweeper resumes it).
     */
    async process(message: InboundMailMessage, lastAttempt = false): Promise<MailOutcome | 'GONE' | 'BUSY'> {
      const existing = await deps.processed.get(message.messageId);
      if (existing?.state === 'DONE') return finish(message, existing);

      const owner = deps.runId?.() ?? randomUUID();
      const until = new Date(deps.clock().getTime() + leaseMs).toISOString();
      const { taken, attempts } = await deps.processed.start(message, owner, deps.clock(), until);
      if (taken === 'ENDED') return finishEnded(message);
      if (taken === 'BUSY') return 'BUSY';
      if (taken === 'RESUMED') {
        deps.log.info('Inbound e-mail resumed: the run before stopped', { messageId: message.messageId, attempts });
      }
      const lease = holdLease(message.messageId, owner);
      try {
        return await runOf(message, owner, taken === 'RESUMED', lease.state)();
      } catch (error) {
        lease.stop();
        if (error instanceof LeaseLostError) return 'BUSY';
        if (lastAttempt || attempts >= deps.maxAttempts) {
          const record = await deps.processed.get(message.messageId);
          if (record && (await endMailFailed(deps, record, { owner }, deps.clock()))) await finishEnded(message);
        } else {
          // The next try need not wait for the lease to lapse.
          await deps.processed.release(message.messageId, owner, deps.clock().toISOString()).catch(() => undefined);
        }
        throw error;
      } finally {
        lease.stop();
      }
    },
  };

  function authenticated(message: InboundMailMessage, from: string | null): boolean {
    const domain = domainOf(from);
    return domain !== null && message.verdicts.authenticatedDomain?.toLowerCase() === domain;
  }

  async function companyOf(recipients: readonly string[]): Promise<string | null> {
    for (const recipient of recipients) {
      const taxId = companyOfIntakeAddress(recipient, deps.intakeDomain);
      if (taxId && (await deps.companies.exists(taxId))) return taxId;
    }
    return null;
  }
}

export type InboundMail = ReturnType<typeof makeInboundMail>;
