import type { InboundMailMessage } from '@portal/shared';
import type { Audience, FeedItem, FeedItemFacts } from '../repositories/notifications.js';
import { failedAnswer, type DocumentResult, type StoredAnswer } from './answers.js';

/** The folded base name a document's result is keyed by (the attachments reader groups the files so). */
export const mailResultKeyOf = (base: string) => base.toLowerCase();

export type MailOutcome =
  | 'REGISTERED'
  | 'UNAUTHENTICATED'
  | 'UNKNOWN_SENDER'
  | 'SENDER_MISMATCH'
  | 'UNKNOWN_ADDRESS'
  | 'REFUSED_FILES'
  | 'RATE_LIMITED'
  /** Its runs kept stopping (or its raw copy was gone): ended with what was recorded, the sender told. */
  | 'FAILED';

/** Who sent a message and what it holds, recorded once it passed its checks: what is needed to answer it. */
export interface MailAbout {
  readonly from: string;
  readonly subject: string;
  /** The sender's account: its feed is told. */
  readonly userId: string;
  /** The message's documents' base names, in its order. */
  readonly bases: readonly string[];
}

/**
 * A received message's record: PROCESSING while a run holds its lease (renewed every few seconds), then DONE with its
 * outcome and its answer until sent (null: none is due).
 */
export interface MailRecord {
  readonly messageId: string;
  readonly state: 'PROCESSING' | 'DONE';
  readonly outcome: MailOutcome | null;
  readonly answer: StoredAnswer | null;
  readonly answered: boolean;
  /** Runs that took the message. */
  readonly attempts: number;
  readonly leaseUntil: string | null;
  /** When a run last took over a message whose run had stopped. */
  readonly resumedAt: string | null;
  /** The queue message, kept while PROCESSING so that the sweeper can hand the message to a worker again. */
  readonly message: InboundMailMessage | null;
  readonly about: MailAbout | null;
}

export interface MailStart {
  readonly taken: 'STARTED' | 'RESUMED' | 'BUSY' | 'ENDED';
  /** Runs that took the message, this one included. */
  readonly attempts: number;
}

/** The records of received messages and of their documents' results (repositories/inbound-mail.ts). */
export interface MailJobStore {
  get(messageId: string): Promise<MailRecord | null>;
  /**
   * Takes the message for the run `owner` until `until`: a new one (STARTED), or one whose lease lapsed before `now`
   * (RESUMED); BUSY when a live run holds it, ENDED when it has its outcome.
   */
  start(message: InboundMailMessage, owner: string, now: Date, until: string): Promise<MailStart>;
  /** Keeps the run's lease until `until`: false when the run no longer holds it. */
  renew(messageId: string, owner: string, until: string): Promise<boolean>;
  /** Lets go of the run's lease at once (a run that failed), so the next try does not wait for it to lapse. */
  release(messageId: string, owner: string, now: string): Promise<boolean>;
  describe(messageId: string, owner: string, about: MailAbout): Promise<boolean>;
  /** The documents' results recorded so far, by folded base name. */
  results(messageId: string): Promise<Map<string, DocumentResult>>;
  /** Records a document's result once: false when it was recorded already. */
  record(messageId: string, result: DocumentResult, now: Date): Promise<boolean>;
  /**
   * Ends a PROCESSING message with its outcome and answer, if `holder` still holds it (the run, or the lapsed lease
   * the sweeper saw): false otherwise, nothing written.
   */
  complete(
    messageId: string,
    holder: { readonly owner: string } | { readonly leaseUntil: string | null },
    outcome: MailOutcome,
    answer: StoredAnswer | null,
    now: Date,
  ): Promise<boolean>;
  markAnswered(messageId: string): Promise<void>;
}

/** The feed a sender's account is told in. */
export type MailFeed = { record(audiences: readonly Audience[], item: FeedItem & FeedItemFacts): Promise<void> };

/** The recorded results in the message's order. */
const inOrder = (bases: readonly string[], recorded: ReadonlyMap<string, DocumentResult>) =>
  bases.flatMap((base) => {
    const result = recorded.get(mailResultKeyOf(base));
    return result ? [result] : [];
  });

/**
 * Ends a message whose runs kept stopping FAILED (docs/intake-channels.md#lease-and-resume): its answer says what was
 * registered before and that the rest was not; the sender's feed says so too. The answer is sent, and the raw copy
 * deleted, by the worker that next receives the message. False when the message moved since `holder` was seen.
 */
export async function endMailFailed(
  deps: {
    readonly processed: Pick<MailJobStore, 'results' | 'complete'>;
    readonly feed: MailFeed;
    readonly portalUrl: string | null;
  },
  record: MailRecord,
  holder: { readonly owner: string } | { readonly leaseUntil: string | null },
  now: Date,
): Promise<boolean> {
  const about = record.about;
  const results = about ? inOrder(about.bases, await deps.processed.results(record.messageId)) : [];
  const answer = about
    ? failedAnswer({
        to: about.from,
        subject: about.subject,
        total: about.bases.length,
        results,
        portalUrl: deps.portalUrl,
      })
    : null;
  if (!(await deps.processed.complete(record.messageId, holder, 'FAILED', answer, now))) return false;
  if (about) {
    const accepted = results.filter((result) => result.kind === 'ACCEPTED').length;
    await deps.feed.record([{ kind: 'USER', taxId: about.userId }], {
      id: `mail-${record.messageId}`,
      registeredAt: now.toISOString(),
      message:
        `No se pudo terminar de procesar su correo${about.subject ? ` «${about.subject}»` : ''}: se registraron ` +
        `${accepted} de ${about.bases.length} comprobantes. Le enviamos el detalle por correo.`,
      reference: null,
      kind: 'MAIL_PROCESSED',
    });
  }
  return true;
}
