import {
  audiencesOf,
  byEmail,
  deliveryOf,
  invoicePageUrl,
  notificationSubject,
  notificationText,
  type NotificationEvent,
  type NotificationMessage,
} from '@portal/shared';
import type { Mailer } from '../../adapters/email.js';
import { notificationId, type Audience, type NotificationRepository } from '../../repositories/notifications.js';
import { portalEmailBody } from './portal-email.js';

/** The notifications worker's ports: the feed and its recipients, the mailer, the portal's address. */
export interface NotificationDeps {
  readonly repository: NotificationRepository;
  readonly mailer: Mailer;
  readonly clock: () => Date;
  readonly portalUrl: string | null;
}

/**
 * The events a channel's one summary tells its supplier for every document of the group (ADR 0050): its receipt and
 * SUNAT's confirmation. A refusal, which the supplier must act on, is always told on its own.
 */
const GROUPED_EVENTS: readonly NotificationEvent[] = ['INVOICE_RECEIVED', 'SUNAT_VALID'];

/**
 * The notifications worker's job for one event: the feed items of its audiences (with the event's kind, which
 * the feed filters by), except what the staff get in their daily digest (kept in the company's digest log, not
 * written to their feed one by one) and a grouped document's receipt; then one e-mail per recipient whose
 * reception is on and who did not turn the kind's e-mail off, for the audiences the policy e-mails at once. Each
 * step is idempotent, so a redelivery completes what a failed attempt left undone and repeats nothing.
 */
export async function deliverNotification(
  deps: NotificationDeps,
  message: NotificationMessage,
): Promise<{ emailed: string[] }> {
  const { repository, mailer, clock } = deps;
  const id = notificationId(message);
  const text = notificationText(message);
  const who = audiencesOf(message.event);
  const audiences: Audience[] = [
    ...(who.supplier ? [{ kind: 'SUPPLIER' as const, taxId: message.supplierId }] : []),
    ...(who.client ? [{ kind: 'CLIENT' as const, taxId: message.client }] : []),
  ];
  const item = {
    id,
    registeredAt: message.occurredAt,
    message: text,
    reference: { issuerTaxId: message.supplierId, invoiceType: message.invoiceType, invoiceId: message.invoiceId },
    event: message.event,
    supplierName: message.supplierName,
  };
  const digested = (audience: Audience) =>
    audience.kind === 'CLIENT' && deliveryOf(message.event, 'client') === 'DIGEST';
  await Promise.all([
    repository.record(
      audiences.filter((audience) => !digested(audience) && !isGrouped(message, audience)),
      item,
    ),
    ...audiences.filter(digested).map((audience) => repository.recordForDigest(audience.taxId, item)),
  ]);

  const recipients = await emailRecipients(deps, message, audiences);
  const emailed: string[] = [];
  // Every event is about one invoice: the e-mail opens it in the portal, not the portal's first screen.
  const url = deps.portalUrl
    ? invoicePageUrl(deps.portalUrl, {
        supplierId: message.supplierId,
        invoiceType: message.invoiceType,
        invoiceId: message.invoiceId,
      })
    : null;
  const body = portalEmailBody(text, url, 'Ver el comprobante en el portal');
  for (const recipient of recipients) {
    if (!recipient.canReceiveEmails) continue;
    if (!(await repository.claimEmail(id, recipient.userId, clock()))) continue;
    try {
      await mailer.send({ to: recipient.email, subject: notificationSubject(message), ...body });
      emailed.push(recipient.email);
    } catch (error) {
      await repository.releaseEmail(id, recipient.userId);
      throw error;
    }
  }
  return { emailed };
}

/** Who is e-mailed at once: the recipients of the audiences mailed now, with reception on and the kind's e-mail on. */
async function emailRecipients(deps: NotificationDeps, message: NotificationMessage, audiences: readonly Audience[]) {
  const mailed = audiences.filter((audience) => mailedNow(message, audience));
  const everyone = (await Promise.all(mailed.map((audience) => recipientsOf(deps, message, audience)))).flat();
  const reachable = everyone.filter((recipient) => recipient.canReceiveEmails);
  const chosen =
    reachable.length > 0 ? await deps.repository.preferencesOf(reachable.map((each) => each.userId)) : new Map();
  return reachable.filter((recipient) => {
    const preferences = chosen.get(recipient.userId);
    return !preferences || byEmail(preferences, message.event);
  });
}

/**
 * Who is e-mailed for an audience: its accounts; for the company's staff, when the event names the invoice's
 * responsible (the Ley 29623 reminders), only the responsible's account (by its employee e-mail), and the company's
 * staff when the responsible has none, so that the reminder always reaches someone.
 */
async function recipientsOf(
  deps: Pick<NotificationDeps, 'repository'>,
  message: NotificationMessage,
  audience: Audience,
) {
  const accounts = await deps.repository.recipients(audience.taxId);
  if (audience.kind !== 'CLIENT' || !message.responsibleId) return accounts;
  const email = (await deps.repository.employeeEmail(message.client, message.responsibleId))?.toLowerCase();
  const theirs = email ? accounts.filter((account) => account.email.toLowerCase() === email) : [];
  return theirs.length > 0 ? theirs : accounts;
}

/**
 * Whether an audience is e-mailed about the event now: the policy says so (shared `deliveryOf`, ADR 0039: the
 * staff's routine events wait for the daily digest, some of the supplier's are in its feed only), and a document
 * received through a zip or an e-mail is told to its supplier by that channel's answer (the batch's summary, the
 * reply): its users are not e-mailed about each document as well (a zip holds up to 500).
 */
function mailedNow(message: NotificationMessage, audience: Audience): boolean {
  if (deliveryOf(message.event, audience.kind === 'SUPPLIER' ? 'supplier' : 'client') !== 'IMMEDIATE') return false;
  return !isGrouped(message, audience);
}

/**
 * One notice per group of documents registered together (ADR 0050): a document received through a zip or an
 * e-mail, and SUNAT's confirmation of it, are told to its supplier by that channel's one summary (the batch's
 * notice, the reply's feed item) and the list, not by a feed item of their own as well.
 */
function isGrouped(message: NotificationMessage, audience: Audience): boolean {
  return GROUPED_EVENTS.includes(message.event) && message.channel !== undefined && audience.kind === 'SUPPLIER';
}
