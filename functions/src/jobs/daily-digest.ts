import type { Logger } from '@aws-lambda-powertools/logger';
import {
  DIGEST_EVENTS,
  byEmail,
  INVOICE_TYPE_LABELS,
  digestCountText,
  digestEventWord,
  formatDate,
  formatDateTime,
  invoicePageUrl,
  type Client,
  type InvoiceType,
  type NotificationEvent,
} from '@portal/shared';
import type { Clock } from '../adapters/clock.js';
import type { Mailer } from '../adapters/email.js';
import type { ClientRepository } from '../repositories/clients.js';
import type { DigestItem, NotificationRepository } from '../repositories/notifications.js';
import { escapeHtml } from '../use-cases/notifications/portal-email.js';

/**
 * The digest's day ends at 06:55 Lima (11:55 UTC; Lima keeps UTC-5 all year), five minutes before the job runs at
 * 07:00 (SCHEDULES.dailyDigest): a notice committed just before is given that time to reach the feed. What happens
 * from 06:55 on is in the next day's digest.
 */
const CUTOFF_UTC = { hour: 11, minute: 55 };
const DAY_MS = 86_400_000;

/** Invoices listed in one digest; the rest are counted («y N más»). */
export const DIGEST_LIST_LIMIT = 50;
/** Feed items read per company and day, at most (bounded work: a few pages of one Query). */
export const DIGEST_MAX_ITEMS = 20_000;

export interface DailyDigestDeps {
  readonly clients: Pick<ClientRepository, 'listAll'>;
  readonly repository: Pick<
    NotificationRepository,
    'companyFeedBetween' | 'recipients' | 'claimEmail' | 'releaseEmail' | 'record' | 'preferencesOf'
  >;
  readonly mailer: Mailer;
  readonly clock: Clock;
  readonly portalUrl: string | null;
  readonly log: Pick<Logger, 'info' | 'error'>;
  /** @default DIGEST_LIST_LIMIT */
  readonly listLimit?: number;
  /** @default DIGEST_MAX_ITEMS */
  readonly maxItems?: number;
}

export interface DailyDigestResult {
  /** The Lima day of the digest (yyyy-mm-dd): its window ends at 06:55 that day. */
  readonly day: string;
  /** Companies with something to tell that day. */
  readonly companies: number;
  /** Digests e-mailed by this run (a re-run the same day sends only what an earlier run did not). */
  readonly emailed: number;
}

/** The window of the digest a run at `now` sends: the 24 h ending at the latest 06:55 Lima not after `now`. */
export function digestWindow(now: Date): { day: string; from: string; to: string } {
  let end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), CUTOFF_UTC.hour, CUTOFF_UTC.minute);
  if (end > now.getTime()) end -= DAY_MS;
  const to = new Date(end);
  return { day: to.toISOString().slice(0, 10), from: new Date(end - DAY_MS).toISOString(), to: to.toISOString() };
}

/** The claim of one user's digest of one company and day (claimEmail): a re-run never sends it twice. */
export const digestId = (client: string, day: string) => `DIGEST#${client}#${day}`;

interface InvoiceLine {
  readonly supplierId: string;
  readonly supplierName: string | null;
  readonly invoiceType: InvoiceType;
  readonly invoiceId: string;
  readonly events: Set<NotificationEvent>;
  latest: string;
}

/** What one company's day comes to: the counts per kind and the invoices concerned, latest first. */
export function summarize(items: readonly DigestItem[]) {
  const counts = new Map<NotificationEvent, number>();
  const invoices = new Map<string, InvoiceLine>();
  for (const item of items) {
    // Items written before the digest existed carry no kind: their e-mails were sent one by one then.
    if (!item.event || !DIGEST_EVENTS.includes(item.event)) continue;
    counts.set(item.event, (counts.get(item.event) ?? 0) + 1);
    if (!item.supplierId || !item.invoiceType || !item.invoiceId) continue;
    const key = [item.supplierId, item.invoiceType, item.invoiceId].join('|');
    const line = invoices.get(key) ?? {
      supplierId: item.supplierId,
      supplierName: item.supplierName,
      invoiceType: item.invoiceType,
      invoiceId: item.invoiceId,
      events: new Set<NotificationEvent>(),
      latest: item.registeredAt,
    };
    line.events.add(item.event);
    if (item.registeredAt > line.latest) line.latest = item.registeredAt;
    invoices.set(key, line);
  }
  return {
    counts: DIGEST_EVENTS.flatMap((event) => (counts.has(event) ? [{ event, count: counts.get(event)! }] : [])),
    invoices: [...invoices.values()].sort((a, b) => b.latest.localeCompare(a.latest)),
  };
}

/**
 * The digest's one item in the company's feed (ADR 0050): the staff read the day's routine events there as one
 * notice, not one per event. «Resumen diario del 14/03/26: 12 comprobantes recibidos, 1 no válido en SUNAT.»
 */
export function digestFeedText(day: string, summary: ReturnType<typeof summarize>): string {
  const counts = summary.counts.map(({ event, count }) => digestCountText(event, count)).join(', ');
  return `Resumen diario del ${formatDate(day)}: ${counts}. Vea los comprobantes en la lista.`;
}

/** The «Resumen diario» e-mail of one company's day (es-PE, dates as the portal writes them, Lima). */
export function digestEmail(input: {
  client: Pick<Client, 'taxId' | 'name'>;
  window: { day: string; from: string; to: string };
  summary: ReturnType<typeof summarize>;
  truncated: boolean;
  portalUrl: string | null;
  listLimit: number;
}): { subject: string; text: string; html: string } {
  const { client, window, summary, portalUrl } = input;
  const origin = portalUrl?.replace(/\/+$/, '') ?? null;
  const counts = summary.counts.map(({ event, count }) => digestCountText(event, count));
  const listed = summary.invoices.slice(0, input.listLimit).map((line) => ({
    text: `${INVOICE_TYPE_LABELS[line.invoiceType]} ${line.invoiceId}${line.supplierName ? ` de ${line.supplierName}` : ` (RUC ${line.supplierId})`}: ${DIGEST_EVENTS.filter(
      (event) => line.events.has(event),
    )
      .map(digestEventWord)
      .join(', ')}`,
    url: origin ? invoicePageUrl(origin, line) : null,
  }));
  const more = summary.invoices.length - listed.length;
  const intro = `Resumen diario de ${client.name}: lo ocurrido con sus comprobantes entre el ${formatDateTime(window.from)} y el ${formatDateTime(window.to, { zone: true })}.`;
  const partial = input.truncated
    ? 'El día tuvo más avisos de los que cabe contar aquí: el resumen cuenta los primeros; el portal los muestra todos.'
    : null;
  const listUrl = origin ? `${origin}/invoices` : null;
  const footer =
    'Recibe este resumen porque tiene activada la recepción de correos del Portal de Proveedores. Los avisos que requieren su atención (errores de registro en SAP, plazos de la Ley 29623, mensajes de proveedores) le llegan en el momento.';

  const text = [
    intro,
    counts.map((line) => `- ${line}`).join('\n'),
    ...(partial ? [partial] : []),
    `Comprobantes:\n${listed.map((line) => `- ${line.text}${line.url ? `\n  ${line.url}` : ''}`).join('\n')}${more > 0 ? `\ny ${more} más.` : ''}`,
    ...(listUrl ? [`Ver todos los comprobantes en el portal: ${listUrl}`] : []),
    footer,
    'Portal de Proveedores',
  ].join('\n\n');

  const html = [
    `<p>${escapeHtml(intro)}</p>`,
    `<ul>${counts.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`,
    ...(partial ? [`<p>${escapeHtml(partial)}</p>`] : []),
    `<p>Comprobantes:</p><ul>${listed
      .map((line) =>
        line.url
          ? `<li><a href="${escapeHtml(line.url)}">${escapeHtml(line.text)}</a></li>`
          : `<li>${escapeHtml(line.text)}</li>`,
      )
      .join('')}</ul>${more > 0 ? `<p>y ${more} más.</p>` : ''}`,
    ...(listUrl ? [`<p><a href="${escapeHtml(listUrl)}">Ver todos los comprobantes en el portal</a></p>`] : []),
    `<p style="color:#5f6b7a">${escapeHtml(footer)}</p>`,
    '<p style="color:#5f6b7a">Portal de Proveedores</p>',
  ].join('');

  return {
    subject: `Portal de Proveedores · Resumen diario del ${formatDate(window.day)} · ${client.name}`,
    text,
    html,
  };
}

/**
 * The staff's daily digest (SCHEDULES.dailyDigest, ADR 0039, ADR 0050). For each company: its routine events of the
 * day (its digest log and feed, projected, paged, bounded), counted and their invoices listed; nothing when the day
 * had none. Then one item in the company's feed saying the counts, and one e-mail per account of the company whose
 * reception is on (the same index and flag as the immediate e-mails: a disabled account has it off) and who did not
 * turn the digest's e-mail off, each taken first with a claim per company, day and user: a re-run, or a
 * run after a crash halfway, sends only the digests not sent yet. A company that failed does not stop the others;
 * the run fails at the end so that it is retried, and the retry repeats nothing.
 */
export function makeDailyDigest(deps: DailyDigestDeps) {
  const { clients, repository, mailer, clock, log } = deps;
  const listLimit = deps.listLimit ?? DIGEST_LIST_LIMIT;
  const maxItems = deps.maxItems ?? DIGEST_MAX_ITEMS;

  async function digestOf(client: Client, window: ReturnType<typeof digestWindow>): Promise<number | null> {
    const { items, truncated } = await repository.companyFeedBetween(client.taxId, window.from, window.to, maxItems);
    const summary = summarize(items);
    if (summary.counts.length === 0) return null;
    const email = digestEmail({ client, window, summary, truncated, portalUrl: deps.portalUrl, listLimit });
    const id = digestId(client.taxId, window.day);
    await repository.record([{ kind: 'CLIENT', taxId: client.taxId }], {
      id: `digest-${client.taxId}-${window.day}`,
      registeredAt: window.to,
      message: digestFeedText(window.day, summary),
      reference: null,
      kind: 'DAILY_DIGEST',
    });
    const reachable = (await repository.recipients(client.taxId)).filter((recipient) => recipient.canReceiveEmails);
    const chosen = reachable.length > 0 ? await repository.preferencesOf(reachable.map((each) => each.userId)) : null;
    let emailed = 0;
    for (const recipient of reachable) {
      const preferences = chosen?.get(recipient.userId);
      if (preferences && !byEmail(preferences, 'DAILY_DIGEST')) continue;
      if (!(await repository.claimEmail(id, recipient.userId, clock()))) continue;
      try {
        await mailer.send({ to: recipient.email, ...email });
      } catch (error) {
        await repository.releaseEmail(id, recipient.userId);
        throw error;
      }
      emailed += 1;
    }
    return emailed;
  }

  return {
    async run(): Promise<DailyDigestResult> {
      const window = digestWindow(clock());
      let companies = 0;
      let emailed = 0;
      const failed: string[] = [];
      for (const client of await clients.listAll()) {
        try {
          const sent = await digestOf(client, window);
          if (sent === null) continue;
          companies += 1;
          emailed += sent;
        } catch (error) {
          failed.push(client.taxId);
          log.error('daily digest failed for a company', { client: client.taxId, day: window.day, error });
        }
      }
      log.info('daily digest', { day: window.day, companies, emailed, failed: failed.length });
      if (failed.length > 0) throw new Error(`Resumen diario no enviado a ${failed.join(', ')}: se reintenta`);
      return { day: window.day, companies, emailed };
    },
  };
}
