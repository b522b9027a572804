import { byEmail, type NoticeKind } from '@portal/shared';
import type { Mailer } from '../../adapters/email.js';
import type { NotificationRepository } from '../../repositories/notifications.js';
import { portalEmailBody } from './portal-email.js';

/** A notice for one person alone (their own feed), e-mailed to them when their reception is on. */
export interface PersonalNotice {
  /** Stable for the event: a second delivery writes and mails nothing more. */
  readonly id: string;
  readonly registeredAt: string;
  readonly text: string;
  readonly subject: string;
  /** The portal's page the e-mail links to ('/invoices?zip=…'); null for none. */
  readonly path: string | null;
  /** What the user chooses about (their preferences): whether it shows in their feed and is e-mailed. */
  readonly kind: NoticeKind;
}

export interface PersonalNoticeDeps {
  readonly repository: Pick<
    NotificationRepository,
    'record' | 'recipients' | 'claimEmail' | 'releaseEmail' | 'preferences'
  >;
  readonly mailer: Mailer;
  readonly clock: () => Date;
  readonly portalUrl: string | null;
}

/**
 * What concerns its user alone (a zip they uploaded has been processed): a feed item in their own feed ('USER'), and
 * an e-mail when their account under `taxId` (the company they acted for) receives e-mails and they did not turn
 * the kind's e-mail off, as an invoice's notice.
 */
export async function deliverPersonalNotice(
  deps: PersonalNoticeDeps,
  user: { userId: string; taxId: string },
  notice: PersonalNotice,
): Promise<{ emailed: boolean }> {
  const { repository, mailer } = deps;
  await repository.record([{ kind: 'USER', taxId: user.userId }], {
    id: notice.id,
    registeredAt: notice.registeredAt,
    message: notice.text,
    reference: null,
    kind: notice.kind,
  });
  const account = (await repository.recipients(user.taxId)).find((recipient) => recipient.userId === user.userId);
  if (!account?.canReceiveEmails) return { emailed: false };
  if (!byEmail(await repository.preferences(user.userId), notice.kind)) return { emailed: false };
  if (!(await repository.claimEmail(notice.id, user.userId, deps.clock()))) return { emailed: false };
  const url = deps.portalUrl && notice.path ? `${deps.portalUrl.replace(/\/+$/, '')}${notice.path}` : null;
  try {
    await mailer.send({
      to: account.email,
      subject: notice.subject,
      ...portalEmailBody(notice.text, url, 'Ver en el portal'),
    });
  } catch (error) {
    await repository.releaseEmail(notice.id, user.userId);
    throw error;
  }
  return { emailed: true };
}
