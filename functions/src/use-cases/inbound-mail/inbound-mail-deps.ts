import type { Mailer } from '../../adapters/email.js';
import type { Caller } from '../../http/caller.js';
import type { MailFeed, MailJobStore } from '../../mail/mail-job.js';
import type { Meter } from '../../observability/meter.js';
import type { FileIntakeOutcome, IncomingFiles } from '../intake/intake-deps.js';

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
  /** @default JOB_LEASE_MS (jobs/job-leases.ts) */
  readonly leaseMs?: number;
  /** The run's id, its lease's owner. @default a random UUID */
  readonly runId?: () => string;
}
