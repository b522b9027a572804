import type { InboundMailMessage } from '@portal/shared';
import { emailOf } from '../../mail/answers.js';
import type { MailOutcome, MailRecord } from '../../mail/mail-job.js';
import type { InboundMailDeps } from './inbound-mail-deps.js';

type FinishDeps = Pick<InboundMailDeps, 'mailer' | 'processed' | 'raw'>;

/** Sends the answer once and deletes the raw copy: each step idempotent, so a redelivery repeats them harmlessly. */
export async function finishMail(
  deps: FinishDeps,
  message: InboundMailMessage,
  record: MailRecord,
): Promise<MailOutcome> {
  if (record.answer && !record.answered) {
    await deps.mailer.send(emailOf(record.answer));
    await deps.processed.markAnswered(record.messageId);
  }
  await deps.raw.remove(message.bucket, message.key);
  return record.outcome ?? 'FAILED';
}

/** The ended record, answered and cleaned up. */
export async function finishEnded(deps: FinishDeps, message: InboundMailMessage): Promise<MailOutcome | 'GONE'> {
  const ended = await deps.processed.get(message.messageId);
  return ended?.state === 'DONE' ? finishMail(deps, message, ended) : 'GONE';
}
