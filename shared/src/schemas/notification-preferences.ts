import * as z from 'zod/mini';
import { deliveryOf, type NotificationAudience } from '../rules/notifications.js';
import { NOTIFICATION_EVENTS, type NotificationEvent } from './messages.js';
import { listOf } from './common.js';

// A user's choice of which notices reach their feed and which their e-mail (docs/adr/0050-quiet-notifications.md).

/**
 * The kinds of notice a person may choose about: every invoice event, and the notices about one person's own work
 * (a zip processed, an e-mail's documents processed, an export ready) and the staff's daily digest.
 */
export const NOTICE_KINDS = [
  ...NOTIFICATION_EVENTS,
  'ZIP_PROCESSED',
  'MAIL_PROCESSED',
  'EXPORT_READY',
  'DAILY_DIGEST',
] as const;
export const NoticeKind = z.enum(NOTICE_KINDS);
export type NoticeKind = z.infer<typeof NoticeKind>;

/** What a person reads about each kind on the preferences screen (es-PE). */
export const NOTICE_KIND_LABELS: Record<NoticeKind, string> = {
  INVOICE_RECEIVED: 'Comprobante recibido',
  SUNAT_VALID: 'Comprobante válido en SUNAT',
  SUNAT_INVALID: 'Comprobante no válido en SUNAT',
  INVOICE_APPROVED: 'Comprobante aprobado',
  INVOICE_REJECTED: 'Comprobante rechazado',
  PAYMENT_SCHEDULED: 'Pago programado',
  INVOICE_PAID: 'Comprobante pagado',
  MIRO_FAILED: 'Error de registro en SAP',
  ACQUIRER_CONFORMITY_DUE_SOON: 'Plazo de conformidad por vencer (Ley 29623)',
  ACQUIRER_CONFORMITY_DUE_TODAY: 'Plazo de conformidad vence hoy (Ley 29623)',
  ACQUIRER_CONFORMITY_PRESUMED: 'Conformidad presunta (Ley 29623)',
  ACQUIRER_CONFORMITY_REGISTERED: 'Conformidad registrada (Ley 29623)',
  ACQUIRER_DISCONFORMITY_REGISTERED: 'Disconformidad registrada (Ley 29623)',
  INVOICE_OBSERVED: 'Comprobante observado',
  INVOICE_MESSAGE_FROM_STAFF: 'Mensaje de la empresa',
  INVOICE_MESSAGE_FROM_SUPPLIER: 'Mensaje de un proveedor',
  CDR_CONTRADICTION: 'CDR que no concuerda',
  ZIP_PROCESSED: 'ZIP procesado',
  MAIL_PROCESSED: 'Correo de comprobantes procesado',
  EXPORT_READY: 'Archivo exportado listo',
  DAILY_DIGEST: 'Resumen diario',
};

/** One kind as the caller has it: in the feed or not, by e-mail or not (null: this kind is never e-mailed). */
export const NotificationPreference = z.object({
  kind: NoticeKind,
  label: z.string(),
  feed: z.boolean(),
  email: z.nullable(z.boolean()),
});
export type NotificationPreference = z.infer<typeof NotificationPreference>;

export const NotificationPreferences = listOf(NotificationPreference);
export type NotificationPreferences = z.infer<typeof NotificationPreferences>;

/** PUT: the kinds the caller chooses about; a kind left out takes its default (in the feed, and e-mailed). */
export const NotificationPreferencesBody = z.object({
  items: z
    .array(z.object({ kind: NoticeKind, feed: z.boolean(), email: z.nullable(z.boolean()) }))
    .check(z.maxLength(NOTICE_KINDS.length)),
});
export type NotificationPreferencesBody = z.infer<typeof NotificationPreferencesBody>;

/** What is stored of a user's choice: only the kinds turned off, so that a kind added later starts on. */
export interface StoredPreferences {
  readonly feedOff: readonly NoticeKind[];
  readonly emailOff: readonly NoticeKind[];
}
export const DEFAULT_PREFERENCES: StoredPreferences = { feedOff: [], emailOff: [] };

const isEvent = (kind: NoticeKind): kind is NotificationEvent =>
  (NOTIFICATION_EVENTS as readonly string[]).includes(kind);

/**
 * The kinds a person of an audience is told, and whether each can be e-mailed: the invoice events the policy gives
 * the audience (for the staff, only those e-mailed at once: the routine ones come in the daily digest, which is a
 * kind of its own); a zip processed (e-mailed to its uploader); an e-mail's documents processed (its answer is the
 * reply to that e-mail, always sent); an export ready (feed only).
 */
export function noticeKindsOf(audience: NotificationAudience): { kind: NoticeKind; emailed: boolean }[] {
  const events = NOTICE_KINDS.filter(isEvent).flatMap((event) => {
    const delivery = deliveryOf(event, audience);
    if (delivery === null || (audience === 'client' && delivery === 'DIGEST')) return [];
    return [{ kind: event as NoticeKind, emailed: delivery === 'IMMEDIATE' }];
  });
  const own: { kind: NoticeKind; emailed: boolean }[] =
    audience === 'supplier'
      ? [
          { kind: 'ZIP_PROCESSED', emailed: true },
          { kind: 'MAIL_PROCESSED', emailed: false },
          { kind: 'EXPORT_READY', emailed: false },
        ]
      : [
          { kind: 'DAILY_DIGEST', emailed: true },
          { kind: 'ZIP_PROCESSED', emailed: true },
          { kind: 'EXPORT_READY', emailed: false },
        ];
  return [...events, ...own];
}

/** The caller's preferences as the API shows them: every kind of the audience, off only where they chose so. */
export function preferencesView(audience: NotificationAudience, stored: StoredPreferences): NotificationPreference[] {
  return noticeKindsOf(audience).map(({ kind, emailed }) => ({
    kind,
    label: NOTICE_KIND_LABELS[kind],
    feed: !stored.feedOff.includes(kind),
    email: emailed ? !stored.emailOff.includes(kind) : null,
  }));
}

/** A problem of a PUT body: which item and why (es-PE), for ERROR_INVALID_PARAMETER. */
export interface PreferencesProblem {
  readonly parameter: string;
  readonly reason: string;
}

/**
 * What a PUT body stores, or its first problem: each kind once, one the audience is told, and an e-mail choice
 * (true or false) exactly for the kinds that are e-mailed (null for the others).
 */
export function storedPreferencesOf(
  audience: NotificationAudience,
  body: NotificationPreferencesBody,
): StoredPreferences | PreferencesProblem {
  const kinds = new Map(noticeKindsOf(audience).map((each) => [each.kind, each.emailed]));
  const seen = new Set<NoticeKind>();
  const feedOff: NoticeKind[] = [];
  const emailOff: NoticeKind[] = [];
  for (const [index, item] of body.items.entries()) {
    const at = `items[${index}]`;
    const emailed = kinds.get(item.kind);
    if (emailed === undefined) {
      return { parameter: `${at}.kind`, reason: `el aviso «${NOTICE_KIND_LABELS[item.kind]}» no es de su perfil.` };
    }
    if (seen.has(item.kind)) {
      return { parameter: `${at}.kind`, reason: `el aviso «${NOTICE_KIND_LABELS[item.kind]}» se repite.` };
    }
    seen.add(item.kind);
    if (emailed && item.email === null) {
      return { parameter: `${at}.email`, reason: 'indique si desea recibir este aviso por correo (true o false).' };
    }
    if (!emailed && item.email !== null) {
      return { parameter: `${at}.email`, reason: 'este aviso no se envía por correo: debe ser null.' };
    }
    if (!item.feed) feedOff.push(item.kind);
    if (item.email === false) emailOff.push(item.kind);
  }
  return { feedOff, emailOff };
}

/** Whether a stored choice lets a kind reach the feed / the e-mail (an unknown or absent kind always does). */
export const inFeed = (stored: StoredPreferences, kind: NoticeKind | null) =>
  kind === null || !stored.feedOff.includes(kind);
export const byEmail = (stored: StoredPreferences, kind: NoticeKind) => !stored.emailOff.includes(kind);
