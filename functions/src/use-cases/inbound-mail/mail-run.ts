import { METRICS, companyOfIntakeAddress, counted, formatCount, type InboundMailMessage } from '@portal/shared';
import {
  refusalAnswer,
  resultAnswer,
  type DocumentResult,
  type MessageRefusal,
  type StoredAnswer,
} from '../../mail/answers.js';
import { readMessage, type MailDocument } from '../../mail/attachments.js';
import { mailResultKeyOf, type MailAbout, type MailOutcome } from '../../mail/mail-job.js';
import { domainOf } from '../../mail/verdicts.js';
import { LeaseLostError } from '../lease-holder.js';
import type { InboundMailDeps, SenderAccount } from './inbound-mail-deps.js';
import { mailDocumentResult } from './mail-document-result.js';
import { finishEnded } from './mail-finish.js';

/** One run that holds the message's lease, from reading it to its outcome. */
export interface MailRun {
  readonly message: InboundMailMessage;
  readonly owner: string;
  /** It took over a message whose run had stopped: the answer says it resumed. */
  readonly resumed: boolean;
  readonly lease: { readonly lost: boolean };
}

const lostLease = (run: MailRun) =>
  new LeaseLostError(`inbound e-mail ${run.message.messageId}: another run holds it now`);

/** Ends the run's message with its outcome and answer, then answers and cleans up. */
async function conclude(
  deps: InboundMailDeps,
  run: MailRun,
  outcome: MailOutcome,
  answer: StoredAnswer | null,
): Promise<MailOutcome> {
  if (!(await deps.processed.complete(run.message.messageId, { owner: run.owner }, outcome, answer, deps.clock()))) {
    throw lostLease(run);
  }
  deps.meter.count(METRICS.inboundMailProcessed, 1);
  if (outcome === 'UNAUTHENTICATED') deps.meter.count(METRICS.inboundMailUnauthenticated, 1);
  return finishEnded(deps, run.message) as Promise<MailOutcome>;
}

/** An answer to a message not taken, within the sender's hourly quota. */
async function refuse(
  deps: InboundMailDeps,
  run: MailRun,
  to: { readonly from: string; readonly subject: string },
  outcome: MailOutcome,
  refusal: MessageRefusal,
): Promise<MailOutcome> {
  const { from, subject } = to;
  deps.log.info('Inbound e-mail refused', { messageId: run.message.messageId, outcome, from });
  if (!(await deps.answerQuota.take(from, deps.clock()))) {
    deps.log.warn('Inbound e-mail refused without an answer: the sender has had its answers this hour', {
      messageId: run.message.messageId,
      from,
    });
    return conclude(deps, run, 'RATE_LIMITED', null);
  }
  const answer = refusalAnswer({
    to: from,
    subject,
    refusal,
    intakeDomain: deps.intakeDomain,
    portalUrl: deps.portalUrl,
  });
  return conclude(deps, run, outcome, answer);
}

/** Each document registered in turn, its result recorded at once; those recorded by an earlier run are kept. */
async function registerAll(
  deps: InboundMailDeps,
  run: MailRun,
  sender: SenderAccount,
  company: string,
  documents: readonly MailDocument[],
): Promise<DocumentResult[]> {
  const recorded = await deps.processed.results(run.message.messageId);
  const results: DocumentResult[] = [];
  for (const document of documents) {
    const known = recorded.get(mailResultKeyOf(document.base));
    if (known) {
      results.push(known);
      continue;
    }
    if (run.lease.lost) throw lostLease(run);
    const result = await mailDocumentResult(deps, run.message, sender, company, document);
    await deps.processed.record(run.message.messageId, result, deps.clock());
    results.push(result);
  }
  return results;
}

/**
 * The run: unauthenticated mail is dropped unanswered; an unknown sender (or envelope sender), an address that is no
 * company's intake address, or files refused whole are answered and nothing is stored; a registered supplier's
 * documents are each registered, the sender's feed told and the answer sent.
 */
export async function runMail(deps: InboundMailDeps, run: MailRun): Promise<MailOutcome | 'GONE'> {
  const { message } = run;
  const raw = await deps.raw.get(message.bucket, message.key);
  if (!raw) {
    deps.log.warn('Inbound e-mail gone before it was processed', { messageId: message.messageId });
    await conclude(deps, run, 'FAILED', null);
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
    return conclude(deps, run, 'UNAUTHENTICATED', null);
  }
  const to = { from: from!, subject: read.subject };
  const sender = await deps.senders.find(from!);
  if (!sender || sender.taxIds.length === 0) return refuse(deps, run, to, 'UNKNOWN_SENDER', { kind: 'UNKNOWN_SENDER' });
  const envelope = message.envelopeSender;
  if (envelope !== undefined && envelope.toLowerCase() !== from!.toLowerCase()) {
    // A bounce (null reverse path) is never answered (RFC 3834 §2): it would answer a mail system, not a person.
    if (envelope === '') {
      deps.log.warn('Inbound e-mail dropped: it has no envelope sender', { messageId: message.messageId, from });
      return conclude(deps, run, 'SENDER_MISMATCH', null);
    }
    const relayed = await deps.senders.find(envelope);
    if (!relayed || !relayed.taxIds.some((taxId) => sender.taxIds.includes(taxId))) {
      return refuse(deps, run, to, 'SENDER_MISMATCH', { kind: 'SENDER_MISMATCH', envelope });
    }
  }
  const company = await companyOf(deps, message.recipients);
  if (!company) return refuse(deps, run, to, 'UNKNOWN_ADDRESS', { kind: 'UNKNOWN_ADDRESS' });
  if (read.refusal) {
    const { reason, detail } = read.refusal;
    return refuse(deps, run, to, 'REFUSED_FILES', { kind: 'FILES', reason, detail });
  }

  // What the sweeper needs to answer the sender, should every run of this message stop.
  const about: MailAbout = {
    from: from!,
    subject: read.subject,
    userId: sender.userId,
    bases: read.documents.map((document) => document.base),
  };
  if (!(await deps.processed.describe(message.messageId, run.owner, about))) throw lostLease(run);
  const results = await registerAll(deps, run, sender, company, read.documents);
  const answer = resultAnswer({
    to: from!,
    subject: read.subject,
    results,
    portalUrl: deps.portalUrl,
    resumed: run.resumed,
  });
  await tellFeed(deps, run, sender, read.subject, results);
  return conclude(deps, run, 'REGISTERED', answer);
}

/** The sender's feed says the message was processed, and how many of its documents were registered. */
async function tellFeed(
  deps: Pick<InboundMailDeps, 'feed' | 'clock'>,
  run: MailRun,
  sender: SenderAccount,
  subject: string,
  results: readonly DocumentResult[],
): Promise<void> {
  const accepted = results.filter((result) => result.kind === 'ACCEPTED').length;
  await deps.feed.record([{ kind: 'USER', taxId: sender.userId }], {
    id: `mail-${run.message.messageId}`,
    registeredAt: deps.clock().toISOString(),
    message:
      `Se procesó su correo${subject ? ` «${subject}»` : ''}${run.resumed ? ' (reanudado tras una interrupción)' : ''}: ` +
      `${formatCount(accepted)} de ${counted(results.length, { one: 'comprobante registrado', other: 'comprobantes registrados' })}. Le enviamos el detalle por correo.`,
    reference: null,
    kind: 'MAIL_PROCESSED',
  });
}

function authenticated(message: InboundMailMessage, from: string | null): boolean {
  const domain = domainOf(from);
  return domain !== null && message.verdicts.authenticatedDomain?.toLowerCase() === domain;
}

async function companyOf(
  deps: Pick<InboundMailDeps, 'intakeDomain' | 'companies'>,
  recipients: readonly string[],
): Promise<string | null> {
  for (const recipient of recipients) {
    const taxId = companyOfIntakeAddress(recipient, deps.intakeDomain);
    if (taxId && (await deps.companies.exists(taxId))) return taxId;
  }
  return null;
}
