import {
  audiencesOf,
  deliveryOf,
  invoicePageUrl,
  notificationSubject,
  notificationText,
  type Notification,
  type NotificationMessage,
} from '@portal/shared';
import type { Mailer } from '../adapters/email.js';
import type { Caller } from '../http/caller.js';
import { notificationId, type Audience, type NotificationRepository } from '../repositories/notifications.js';

/** How many notifications the header's panel shows (spec §2: recent notifications). */
export const RECENT_LIMIT = 20;

/** A supplier reads the feeds of its RUCs; staff read the feeds of their companies; everyone reads its own. */
export function audiencesOfCaller(caller: Caller): Audience[] {
  const kind = caller.level === 'SUPPLIER' ? 'SUPPLIER' : 'CLIENT';
  return [...caller.taxIds.map((taxId): Audience => ({ kind, taxId })), { kind: 'USER', taxId: caller.sub }];
}

/** Text made safe for an e-mail's HTML part. */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** What the API serves of the notifications: the caller's feed and its read mark (no e-mail). */
export function makeNotificationFeed(deps: { repository: NotificationRepository; clock: () => Date }) {
  const { repository, clock } = deps;

  async function list(caller: Caller): Promise<{ items: Notification[] }> {
    const [items, readUpTo] = await Promise.all([
      repository.recent(audiencesOfCaller(caller), RECENT_LIMIT),
      repository.readUpTo(caller.sub),
    ]);
    return { items: items.map((item) => ({ ...item, isRead: readUpTo !== null && item.registeredAt <= readUpTo })) };
  }

  return {
    list,

    /** Marks as read everything up to now (or up to the moment given, never later than now). */
    async markAsRead(caller: Caller, upTo: string | undefined): Promise<{ updated: number }> {
      const now = clock().toISOString();
      const mark = upTo && upTo < now ? new Date(upTo).toISOString() : now;
      const { items } = await list(caller);
      await repository.markRead(caller.sub, mark);
      return { updated: items.filter((item) => !item.isRead && item.registeredAt <= mark).length };
    },
  };
}

export function makeNotifications(deps: {
  repository: NotificationRepository;
  mailer: Mailer;
  clock: () => Date;
  portalUrl: string | null;
}) {
  const { repository, mailer, clock } = deps;

  /**
   * Who is e-mailed for an audience: its accounts; for the company's staff, when the event names the invoice's
   * responsible (the Ley 29623 reminders), only the responsible's account (by its employee e-mail), and the company's
   * staff when the responsible has none, so that the reminder always reaches someone.
   */
  async function recipientsOf(message: NotificationMessage, audience: Audience) {
    const accounts = await repository.recipients(audience.taxId);
    if (audience.kind !== 'CLIENT' || !message.responsibleId) return accounts;
    const email = (await repository.employeeEmail(message.client, message.responsibleId))?.toLowerCase();
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
    return !(message.event === 'INVOICE_RECEIVED' && message.channel !== undefined && audience.kind === 'SUPPLIER');
  }

  return {
    ...makeNotificationFeed(deps),

    /**
     * The notifications worker's job for one event: the feed items of its audiences (with the event's kind, which
     * the staff's daily digest reads), then one e-mail per recipient whose reception is on, for the audiences the
     * policy e-mails at once. Each step is idempotent, so a redelivery completes what a failed attempt left undone
     * and repeats nothing.
     */
    async deliver(message: NotificationMessage): Promise<{ emailed: string[] }> {
      const id = notificationId(message);
      const text = notificationText(message);
      const who = audiencesOf(message.event);
      const audiences: Audience[] = [
        ...(who.supplier ? [{ kind: 'SUPPLIER' as const, taxId: message.supplierId }] : []),
        ...(who.client ? [{ kind: 'CLIENT' as const, taxId: message.client }] : []),
      ];
      await repository.record(audiences, {
        id,
        registeredAt: message.occurredAt,
        message: text,
        reference: { issuerTaxId: message.supplierId, invoiceType: message.invoiceType, invoiceId: message.invoiceId },
        event: message.event,
        supplierName: message.supplierName,
      });

      const mailed = audiences.filter((audience) => mailedNow(message, audience));
      const recipients = (await Promise.all(mailed.map((audience) => recipientsOf(message, audience)))).flat();
      const emailed: string[] = [];
      // Every event is about one invoice: the e-mail opens it in the portal, not the portal's first screen.
      const url = deps.portalUrl
        ? invoicePageUrl(deps.portalUrl, {
            supplierId: message.supplierId,
            invoiceType: message.invoiceType,
            invoiceId: message.invoiceId,
          })
        : null;
      const link = url ? `\n\nVer el comprobante en el portal: ${url}` : '';
      for (const recipient of recipients) {
        if (!recipient.canReceiveEmails) continue;
        if (!(await repository.claimEmail(id, recipient.userId, clock()))) continue;
        try {
          await mailer.send({
            to: recipient.email,
            subject: notificationSubject(message),
            text: `${text}${link}\n\nPortal de Proveedores`,
            html: `<p>${escapeHtml(text)}</p>${
              url ? `<p><a href="${escapeHtml(url)}">Ver el comprobante en el portal</a></p>` : ''
            }<p style="color:#5f6b7a">Portal de Proveedores</p>`,
          });
          emailed.push(recipient.email);
        } catch (error) {
          await repository.releaseEmail(id, recipient.userId);
          throw error;
        }
      }
      return { emailed };
    },
  };
}

export type Notifications = ReturnType<typeof makeNotifications>;

/** A notice for one person alone (their own feed), e-mailed to them when their reception is on. */
export interface PersonalNotice {
  /** Stable for the event: a second delivery writes and mails nothing more. */
  readonly id: string;
  readonly registeredAt: string;
  readonly text: string;
  readonly subject: string;
  /** The portal's page the e-mail links to ('/invoices?zip=…'); null for none. */
  readonly path: string | null;
}

/**
 * What concerns its user alone (a zip they uploaded has been processed): a feed item in their own feed ('USER'), and
 * an e-mail when their account under `taxId` (the company they acted for) receives e-mails, as an invoice's notice.
 */
export function makePersonalNotices(deps: {
  repository: Pick<NotificationRepository, 'record' | 'recipients' | 'claimEmail' | 'releaseEmail'>;
  mailer: Mailer;
  clock: () => Date;
  portalUrl: string | null;
}) {
  const { repository, mailer } = deps;
  return {
    async deliver(user: { userId: string; taxId: string }, notice: PersonalNotice): Promise<{ emailed: boolean }> {
      await repository.record([{ kind: 'USER', taxId: user.userId }], {
        id: notice.id,
        registeredAt: notice.registeredAt,
        message: notice.text,
        reference: null,
      });
      const account = (await repository.recipients(user.taxId)).find((recipient) => recipient.userId === user.userId);
      if (!account?.canReceiveEmails) return { emailed: false };
      if (!(await repository.claimEmail(notice.id, user.userId, deps.clock()))) return { emailed: false };
      const url = deps.portalUrl && notice.path ? `${deps.portalUrl.replace(/\/+$/, '')}${notice.path}` : null;
      try {
        await mailer.send({
          to: account.email,
          subject: notice.subject,
          text: `${notice.text}${url ? `\n\nVer en el portal: ${url}` : ''}\n\nPortal de Proveedores`,
          html: `<p>${escapeHtml(notice.text)}</p>${
            url ? `<p><a href="${escapeHtml(url)}">Ver en el portal</a></p>` : ''
          }<p style="color:#5f6b7a">Portal de Proveedores</p>`,
        });
      } catch (error) {
        await repository.releaseEmail(notice.id, user.userId);
        throw error;
      }
      return { emailed: true };
    },
  };
}
