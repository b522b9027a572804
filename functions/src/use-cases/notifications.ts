import {
  BadRequestError,
  audiencesOf,
  byEmail,
  deliveryOf,
  preferencesView,
  storedPreferencesOf,
  type NoticeKind,
  type NotificationAudience,
  type NotificationPreferences,
  type NotificationPreferencesBody,
  invoicePageUrl,
  notificationSubject,
  notificationText,
  type Notification,
  type NotificationEvent,
  type NotificationMessage,
} from '@portal/shared';
import type { Mailer } from '../adapters/email.js';
import type { Caller } from '../http/caller.js';
import { notificationId, type Audience, type NotificationRepository } from '../repositories/notifications.js';

/**
 * The events a channel's one summary tells its supplier for every document of the group (ADR 0050): its receipt and
 * SUNAT's confirmation. A refusal, which the supplier must act on, is always told on its own.
 */
const GROUPED_EVENTS: readonly NotificationEvent[] = ['INVOICE_RECEIVED', 'SUNAT_VALID'];

/** How many notifications the header's panel shows (spec §2: recent notifications). */
export const RECENT_LIMIT = 20;

/** A supplier reads the feeds of its RUCs; staff read the feeds of their companies; everyone reads its own. */
export function audiencesOfCaller(caller: Caller): Audience[] {
  const kind = caller.level === 'SUPPLIER' ? 'SUPPLIER' : 'CLIENT';
  return [...caller.taxIds.map((taxId): Audience => ({ kind, taxId })), { kind: 'USER', taxId: caller.sub }];
}

/** Whose notices a caller chooses about: a supplier's users those of the supplier, everyone else the staff's. */
export const preferenceAudienceOf = (caller: Caller): NotificationAudience =>
  caller.level === 'SUPPLIER' ? 'supplier' : 'client';

/** Text made safe for an e-mail's HTML part. */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** What the API serves of the notifications: the caller's feed and its read mark (no e-mail). */
export function makeNotificationFeed(deps: { repository: NotificationRepository; clock: () => Date }) {
  const { repository, clock } = deps;

  async function list(caller: Caller): Promise<{ items: Notification[] }> {
    const preferences = await repository.preferences(caller.sub);
    const [items, readUpTo] = await Promise.all([
      repository.recent(audiencesOfCaller(caller), RECENT_LIMIT, preferences),
      repository.readUpTo(caller.sub),
    ]);
    return { items: items.map((item) => ({ ...item, isRead: readUpTo !== null && item.registeredAt <= readUpTo })) };
  }

  return {
    list,

    /** The caller's own notification preferences: every kind of its audience, on unless they turned it off. */
    async preferences(caller: Caller): Promise<NotificationPreferences> {
      return { items: preferencesView(preferenceAudienceOf(caller), await repository.preferences(caller.sub)) };
    },

    /** Replaces the caller's own preferences (a kind left out is on again); a kind not of its audience is refused. */
    async savePreferences(caller: Caller, body: NotificationPreferencesBody): Promise<NotificationPreferences> {
      const audience = preferenceAudienceOf(caller);
      const stored = storedPreferencesOf(audience, body);
      if ('reason' in stored) throw new BadRequestError('ERROR_INVALID_PARAMETER', { ...stored });
      await repository.savePreferences(caller.sub, stored, clock());
      return { items: preferencesView(audience, stored) };
    },

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

  return {
    ...makeNotificationFeed(deps),

    /**
     * The notifications worker's job for one event: the feed items of its audiences (with the event's kind, which
     * the feed filters by), except what the staff get in their daily digest (kept in the company's digest log, not
     * written to their feed one by one) and a grouped document's receipt; then one e-mail per recipient whose
     * reception is on and who did not turn the kind's e-mail off, for the audiences the policy e-mails at once. Each
     * step is idempotent, so a redelivery completes what a failed attempt left undone and repeats nothing.
     */
    async deliver(message: NotificationMessage): Promise<{ emailed: string[] }> {
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

      const mailed = audiences.filter((audience) => mailedNow(message, audience));
      const everyone = (await Promise.all(mailed.map((audience) => recipientsOf(message, audience)))).flat();
      const reachable = everyone.filter((recipient) => recipient.canReceiveEmails);
      const chosen =
        reachable.length > 0 ? await repository.preferencesOf(reachable.map((each) => each.userId)) : new Map();
      const recipients = reachable.filter((recipient) => {
        const preferences = chosen.get(recipient.userId);
        return !preferences || byEmail(preferences, message.event);
      });
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
  /** What the user chooses about (their preferences): whether it shows in their feed and is e-mailed. */
  readonly kind: NoticeKind;
}

/**
 * What concerns its user alone (a zip they uploaded has been processed): a feed item in their own feed ('USER'), and
 * an e-mail when their account under `taxId` (the company they acted for) receives e-mails and they did not turn
 * the kind's e-mail off, as an invoice's notice.
 */
export function makePersonalNotices(deps: {
  repository: Pick<NotificationRepository, 'record' | 'recipients' | 'claimEmail' | 'releaseEmail' | 'preferences'>;
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
