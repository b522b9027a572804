import { METRICS, companyOfIntakeAddress, type InboundMailMessage } from '@portal/shared';
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
import type { FileIntakeOutcome, IncomingFiles } from './intake.js';
import { domainOf } from '../mail/verdicts.js';
import type { Audience, FeedItem } from '../repositories/notifications.js';

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

/** What is kept of a processed message: its answer (null: none is due) and whether it went. */
export interface ProcessedMail {
  readonly messageId: string;
  readonly outcome: MailOutcome;
  readonly answer: StoredAnswer | null;
  readonly answered: boolean;
}

export type MailOutcome =
  | 'REGISTERED'
  | 'UNAUTHENTICATED'
  | 'UNKNOWN_SENDER'
  | 'SENDER_MISMATCH'
  | 'UNKNOWN_ADDRESS'
  | 'REFUSED_FILES'
  | 'RATE_LIMITED';

export interface InboundMailDeps {
  /** The raw messages under inbound-mail/ (null: already deleted). */
  readonly raw: {
    get(bucket: string, key: string): Promise<Buffer | null>;
    remove(bucket: string, key: string): Promise<void>;
  };
  readonly processed: {
    get(messageId: string): Promise<ProcessedMail | null>;
    /** Records the message once; false when a record was there already (another delivery wrote it). */
    create(record: ProcessedMail, now: Date): Promise<boolean>;
    markAnswered(messageId: string): Promise<void>;
  };
  /** Takes one of the sender's answers of this hour; false when the hour's are spent. */
  readonly answerQuota: { take(sender: string, now: Date): Promise<boolean> };
  readonly senders: { find(email: string): Promise<SenderAccount | null> };
  /** Whether the RUC is a company of the group (the intake address names one). */
  readonly companies: { exists(taxId: string): Promise<boolean> };
  /** The RUCs of the XML's issuer and acquirer, or null when the XML cannot be read (the intake then tells why). */
  readonly partiesOf: (xml: Uint8Array) => { readonly supplier: string; readonly customer: string } | null;
  readonly fromFiles: (caller: MailCaller, files: IncomingFiles) => Promise<FileIntakeOutcome>;
  readonly mailer: Mailer;
  readonly feed: { record(audiences: readonly Audience[], item: FeedItem): Promise<void> };
  readonly clock: () => Date;
  readonly intakeDomain: string;
  readonly portalUrl: string | null;
  readonly log: {
    info(message: string, extra: Record<string, unknown>): void;
    warn(message: string, extra: Record<string, unknown>): void;
  };
  readonly meter: Meter;
}

/**
 * Invoices by e-mail (issue 24, docs/adr/0035-mail-intake.md). One received message: unauthenticated mail is dropped
 * unanswered; an unknown sender, an address that is no company's intake address, or files refused whole are answered
 * (at most a few times per sender and hour) and nothing is stored; a registered supplier's documents are each
 * registered as 'Cargar XML' would, and the answer tells each one's fate. The raw message is deleted at the end; a
 * small record of it makes a redelivery register and answer nothing again.
 */
export function makeInboundMail(deps: InboundMailDeps) {
  async function finish(message: InboundMailMessage, record: ProcessedMail): Promise<MailOutcome> {
    if (record.answer && !record.answered) {
      await deps.mailer.send(emailOf(record.answer));
      await deps.processed.markAnswered(record.messageId);
    }
    await deps.raw.remove(message.bucket, message.key);
    return record.outcome;
  }

  async function record(
    message: InboundMailMessage,
    outcome: MailOutcome,
    answer: StoredAnswer | null,
  ): Promise<MailOutcome> {
    const entry: ProcessedMail = { messageId: message.messageId, outcome, answer, answered: false };
    if (!(await deps.processed.create(entry, deps.clock()))) {
      // Another delivery of the same message recorded it first: finish what that one recorded.
      const existing = await deps.processed.get(message.messageId);
      return existing ? finish(message, existing) : outcome;
    }
    deps.meter.count(METRICS.inboundMailProcessed, 1);
    if (outcome === 'UNAUTHENTICATED') deps.meter.count(METRICS.inboundMailUnauthenticated, 1);
    return finish(message, entry);
  }

  /** An answer to a message not taken, within the sender's hourly quota. */
  async function refuse(
    message: InboundMailMessage,
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
      return record(message, 'RATE_LIMITED', null);
    }
    const answer = refusalAnswer({
      to: from,
      subject,
      refusal,
      intakeDomain: deps.intakeDomain,
      portalUrl: deps.portalUrl,
    });
    return record(message, outcome, answer);
  }

  async function register(
    message: InboundMailMessage,
    sender: SenderAccount,
    company: string,
    documents: readonly MailDocument[],
  ): Promise<DocumentResult[]> {
    // The account acts for the RUC that issued the document when it has several (as the company header chooses).
    const callerFor = (issuer: string | null): MailCaller => ({
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
    });
    const results: DocumentResult[] = [];
    for (const document of documents) {
      if (!document.ok) {
        results.push({ base: document.base, kind: 'REFUSED', message: document.message });
        continue;
      }
      const parties = deps.partiesOf(document.xml.bytes);
      const customer = parties?.customer ?? null;
      if (customer !== null && customer !== company) {
        results.push({
          base: document.base,
          kind: 'REFUSED',
          message:
            `El comprobante está emitido al RUC ${customer}, pero se envió a la dirección de recepción del RUC ` +
            `${company}. Envíelo a la dirección de la empresa a la que factura.`,
        });
        continue;
      }
      const outcome = await deps.fromFiles(callerFor(parties?.supplier ?? null), {
        sourceKey: `mail/${message.messageId}/${document.base}`,
        channel: 'EMAIL',
        xml: document.xml,
        ...(document.pdf ? { pdf: document.pdf } : {}),
        ...(document.cdr ? { cdr: document.cdr } : {}),
      });
      if (outcome.outcome === 'ACCEPTED') {
        results.push({
          base: document.base,
          kind: 'ACCEPTED',
          invoice: outcome.invoice,
          cdrWarning: outcome.cdrWarning,
        });
      } else if (outcome.outcome === 'ALREADY_EXISTS') {
        results.push({
          base: document.base,
          kind: 'ALREADY_EXISTS',
          invoiceId: outcome.invoiceId,
          message: outcome.message,
        });
      } else {
        results.push({ base: document.base, kind: 'REFUSED', message: outcome.message });
      }
    }
    return results;
  }

  return {
    async process(message: InboundMailMessage): Promise<MailOutcome | 'GONE'> {
      const existing = await deps.processed.get(message.messageId);
      if (existing) return finish(message, existing);

      const raw = await deps.raw.get(message.bucket, message.key);
      if (!raw) {
        deps.log.warn('Inbound e-mail gone before it was processed', { messageId: message.messageId });
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
        return record(message, 'UNAUTHENTICATED', null);
      }
      const sender = await deps.senders.find(from!);
      if (!sender || sender.taxIds.length === 0) {
        return refuse(message, from!, read.subject, 'UNKNOWN_SENDER', { kind: 'UNKNOWN_SENDER' });
      }
      const envelope = message.envelopeSender;
      if (envelope !== undefined && envelope.toLowerCase() !== from!.toLowerCase()) {
        // A bounce (null reverse path) is never answered (RFC 3834 §2): it would answer a mail system, not a person.
        if (envelope === '') {
          deps.log.warn('Inbound e-mail dropped: it has no envelope sender', { messageId: message.messageId, from });
          return record(message, 'SENDER_MISMATCH', null);
        }
        const relayed = await deps.senders.find(envelope);
        if (!relayed || !relayed.taxIds.some((taxId) => sender.taxIds.includes(taxId))) {
          return refuse(message, from!, read.subject, 'SENDER_MISMATCH', { kind: 'SENDER_MISMATCH', envelope });
        }
      }
      const company = await companyOf(message.recipients);
      if (!company) return refuse(message, from!, read.subject, 'UNKNOWN_ADDRESS', { kind: 'UNKNOWN_ADDRESS' });
      if (read.refusal) {
        const { reason, detail } = read.refusal;
        return refuse(message, from!, read.subject, 'REFUSED_FILES', { kind: 'FILES', reason, detail });
      }

      const results = await register(message, sender, company, read.documents);
      const answer = resultAnswer({ to: from!, subject: read.subject, results, portalUrl: deps.portalUrl });
      const accepted = results.filter((result) => result.kind === 'ACCEPTED').length;
      await deps.feed.record([{ kind: 'USER', taxId: sender.userId }], {
        id: `mail-${message.messageId}`,
        registeredAt: deps.clock().toISOString(),
        message:
          `Se procesó su correo${read.subject ? ` «${read.subject}»` : ''}: ${accepted} de ${results.length} ` +
          `${results.length === 1 ? 'comprobante registrado' : 'comprobantes registrados'}. Le enviamos el detalle por correo.`,
        reference: null,
      });
      return record(message, 'REGISTERED', answer);
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
