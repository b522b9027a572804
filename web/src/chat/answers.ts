import {
  INVOICE_STATUSES,
  INVOICE_STATUS_LABELS,
  INVOICE_TYPE_LABELS,
  formatDate,
  formatMoney,
  netToPayLine,
  type InvoiceCount,
  type InvoiceStatus,
  type InvoiceSummary,
  type InvoiceType,
  type Level,
} from '@portal/shared';
import { errorMessage } from '../api/errors';
import { headerMessages } from '../layout/header/messages';
import { invoicesSearchHref } from '../layout/header/invoice-links';
import type { HowToTopic, Intent } from './intents';
import { chatMessages } from './messages';

const text = chatMessages;
const meanings = headerMessages.legend.meanings;

/** A list within an answer, with the sentence that introduces it. */
export interface AnswerList {
  readonly title?: string;
  readonly items: readonly string[];
}

/** One answer of the assistant: a paragraph, optional lists and a closing note, an optional link. */
export interface Answer {
  readonly text: string;
  readonly lists?: readonly AnswerList[];
  readonly note?: string;
  readonly link?: { readonly text: string; readonly href: string };
}

/** A page of GET /invoices for one company (undefined: the supplier's own scope). */
export type InvoiceLookup = (query: {
  client?: string;
  search?: string;
  invoiceStatus?: string;
  limit: number;
}) => Promise<{ items: InvoiceSummary[]; nextCursor: string | null }>;

/** GET /invoices/count for one company (undefined: the supplier's own scope). */
export type InvoiceCounter = (query: {
  client?: string;
  invoiceStatus?: string;
  invoiceType?: string;
}) => Promise<InvoiceCount>;

export interface AnswerContext {
  readonly level: Level;
  readonly count: InvoiceCounter;
  /**
   * The companies whose invoices the user may read, one call each: a supplier reads its own scope
   * (undefined), a manager its companies, an administrator every company of the group.
   */
  readonly scopes: readonly (string | undefined)[];
  readonly lookup: InvoiceLookup;
}

const HOW_TO: Record<HowToTopic, () => Answer> = {
  uploadXml: () => ({ text: text.howTo.uploadXml }),
  withoutXml: () => ({ text: text.howTo.withoutXml }),
  statuses: () => ({
    text: text.howTo.statuses,
    lists: [{ items: INVOICE_STATUSES.map((status) => `${INVOICE_STATUS_LABELS[status]}: ${meanings[status]}`) }],
  }),
  approver: () => ({ text: text.howTo.approver }),
  emails: () => ({ text: text.howTo.emails }),
  password: () => ({ text: text.howTo.password }),
};

/** The same document whatever zeros pad its correlative: F001-00000123 is F001-123. */
function sameNumber(invoice: InvoiceSummary, number: string): boolean {
  const [series, correlative] = number.split('-') as [string, string];
  return invoice.prefixId.toUpperCase() === series && Number(invoice.numericId) === Number(correlative);
}

async function lookupAll(context: AnswerContext, query: { search?: string; invoiceStatus?: string; limit: number }) {
  const pages = await Promise.all(
    context.scopes.map((client) => context.lookup(client ? { ...query, client } : query)),
  );
  return { items: pages.flatMap((page) => page.items), more: pages.some((page) => page.nextCursor !== null) };
}

function describeInvoice(invoice: InvoiceSummary, level: Level): Answer {
  const number = `${invoice.prefixId}-${invoice.numericId}`;
  const party =
    level === 'SUPPLIER'
      ? text.invoice.toClient(invoice.clientName)
      : `${text.invoice.fromSupplier(invoice.supplierName)} ${text.invoice.toClient(invoice.clientName)}`;
  const document = text.invoice.document(INVOICE_TYPE_LABELS[invoice.type], number, party);
  const lines = [
    text.invoice.amount(formatMoney(invoice.amount, invoice.currency)),
    text.invoice.issued(formatDate(invoice.issuedAt)),
  ];
  if (invoice.paidAt) lines.push(text.invoice.paid(formatDate(invoice.paidAt)));
  else if (invoice.scheduledAt) lines.push(text.invoice.scheduled(formatDate(invoice.scheduledAt)));
  if (invoice.status === 'REJECTED' && invoice.statusMessage) lines.push(text.invoice.reason(invoice.statusMessage));
  return {
    text: text.invoice.status(document, INVOICE_STATUS_LABELS[invoice.status], meanings[invoice.status]),
    lists: [{ items: lines }],
  };
}

/**
 * The ways the same number may be stored: SUNAT's XML pads the correlative to eight digits
 * (F001-00000458), people and the forms without XML usually do not (F001-458).
 */
function numberForms(number: string): string[] {
  const [series, correlative] = number.split('-') as [string, string];
  const bare = String(Number(correlative));
  return [...new Set([number, `${series}-${bare}`, `${series}-${bare.padStart(8, '0')}`])];
}

/** The user's invoices of this number, whatever zeros pad its correlative. */
async function invoicesNumbered(number: string, context: AnswerContext): Promise<InvoiceSummary[]> {
  const pages = await Promise.all(numberForms(number).map((search) => lookupAll(context, { search, limit: 20 })));
  const byKey = new Map<string, InvoiceSummary>();
  for (const invoice of pages.flatMap((page) => page.items)) {
    if (sameNumber(invoice, number)) byKey.set(`${invoice.supplierId}#${invoice.type}#${invoice.id}`, invoice);
  }
  return [...byKey.values()];
}

/** One invoice described by `describe`, or each of several, with a link to them in the list. */
async function aboutNumber(
  number: string,
  context: AnswerContext,
  describe: (invoice: InvoiceSummary, level: Level) => Answer,
): Promise<Answer> {
  const found = await invoicesNumbered(number, context);
  const link = { text: text.invoice.open(number), href: invoicesSearchHref(number) };
  if (found.length === 0) return { text: text.invoice.notFound(number) };
  if (found.length === 1) {
    const invoice = found[0]!;
    return {
      ...describe(invoice, context.level),
      link: { text: text.invoice.open(invoice.id), href: invoicesSearchHref(invoice.id) },
    };
  }
  return {
    text: text.invoice.several(found.length, number),
    lists: found.map((invoice) => {
      const described = describe(invoice, context.level);
      return { title: described.text, items: described.lists?.[0]?.items ?? [] };
    }),
    link,
  };
}

function invoiceStatus(number: string, context: AnswerContext): Promise<Answer> {
  return aboutNumber(number, context, describeInvoice);
}

/**
 * "¿Cuándo me pagan la F001-123?" (docs/ap-payment.md): the day it was paid, with SAP's payment document; the day
 * SAP scheduled; else the expected payment date (its due date moved to the company's payment-run day) and the
 * net to pay. A rejected invoice, or one with nothing to pay, has no payment date.
 */
function describePayment(invoice: InvoiceSummary, level: Level): Answer {
  const t = text.paymentDate;
  const number = `${invoice.prefixId}-${invoice.numericId}`;
  const party =
    level === 'SUPPLIER' ? text.invoice.toClient(invoice.clientName) : text.invoice.fromSupplier(invoice.supplierName);
  const document = text.invoice.document(INVOICE_TYPE_LABELS[invoice.type], number, party);
  const payment = invoice.payment ?? null;
  const lines: string[] = [];
  if (payment) lines.push(`${netToPayLine(payment, invoice.currency)}.`);
  if (invoice.status === 'PAID' && invoice.paidAt) {
    const remittance = invoice.remittance;
    return {
      text: remittance
        ? t.paidWith(document, formatDate(invoice.paidAt), remittance.document, remittance.methodName)
        : t.paid(document, formatDate(invoice.paidAt)),
      lists: lines.length > 0 ? [{ items: lines }] : undefined,
    };
  }
  if (invoice.status === 'REJECTED') return { text: t.rejected(document) };
  if (invoice.status === 'SCHEDULED' && invoice.scheduledAt) {
    return { text: t.scheduled(document, formatDate(invoice.scheduledAt)), lists: [{ items: lines }] };
  }
  if (!payment?.expectedPaymentDate) return { text: t.unknown(document, INVOICE_STATUS_LABELS[invoice.status]) };
  if (payment.dueDate && payment.movedToPaymentRun) lines.unshift(t.moved(formatDate(payment.dueDate)));
  lines.push(t.status(INVOICE_STATUS_LABELS[invoice.status], meanings[invoice.status]));
  return { text: t.expected(document, formatDate(payment.expectedPaymentDate)), lists: [{ items: lines }] };
}

function paymentDate(number: string, context: AnswerContext): Promise<Answer> {
  return aboutNumber(number, context, describePayment);
}

async function payments(context: AnswerContext): Promise<Answer> {
  const { items, more } = await lookupAll(context, { invoiceStatus: 'SCHEDULED,ACCEPTED', limit: 20 });
  const numberOf = (invoice: InvoiceSummary) => `${invoice.prefixId}-${invoice.numericId}`;
  const amountOf = (invoice: InvoiceSummary) => formatMoney(invoice.amount, invoice.currency);
  const scheduled = items
    .filter((invoice) => invoice.status === 'SCHEDULED')
    .sort((a, b) => (a.scheduledAt ?? '').localeCompare(b.scheduledAt ?? ''));
  const accepted = items.filter((invoice) => invoice.status === 'ACCEPTED');
  if (scheduled.length === 0 && accepted.length === 0) return { text: text.payments.none };

  const lists: AnswerList[] = [];
  if (scheduled.length > 0) {
    lists.push({
      title: text.payments.scheduledIntro(scheduled.length),
      items: scheduled.map((invoice) =>
        text.payments.scheduledItem(numberOf(invoice), amountOf(invoice), formatDate(invoice.scheduledAt)),
      ),
    });
  }
  if (accepted.length > 0) {
    lists.push({
      title: text.payments.acceptedIntro(accepted.length),
      items: accepted.map((invoice) => text.payments.acceptedItem(numberOf(invoice), amountOf(invoice))),
    });
  }
  return {
    text: text.payments.intro,
    lists,
    note: more ? `${text.payments.more} ${text.payments.pendingReview}` : text.payments.pendingReview,
    link: { text: text.payments.open, href: '/invoices' },
  };
}

/**
 * The open invoices of a role: for a supplier what is not yet paid nor rejected (what it will be paid for),
 * for staff what still waits for them (data to complete, approval).
 */
const OPEN_STATUSES: Record<Level, readonly InvoiceStatus[]> = {
  SUPPLIER: ['PENDING', 'COMPLETED', 'ACCEPTED', 'SCHEDULED'],
  MANAGER: ['PENDING', 'COMPLETED'],
  ADMIN: ['PENDING', 'COMPLETED'],
  UNKNOWN: ['PENDING', 'COMPLETED'],
};

/** How many invoices of each status the user has (every company within reach), for the types asked. */
async function count(intent: Extract<Intent, { kind: 'count' }>, context: AnswerContext): Promise<Answer> {
  const statuses =
    intent.statuses === 'ALL'
      ? INVOICE_STATUSES
      : intent.statuses === 'OPEN'
        ? OPEN_STATUSES[context.level]
        : intent.statuses;
  const invoiceType = intent.types.length > 0 ? intent.types.join(',') : undefined;
  const perStatus = await Promise.all(
    statuses.map(async (status) => {
      const counts = await Promise.all(
        context.scopes.map((client) =>
          context.count({
            ...(client ? { client } : {}),
            invoiceStatus: status,
            ...(invoiceType ? { invoiceType } : {}),
          }),
        ),
      );
      return {
        status,
        count: counts.reduce((sum, counted) => sum + counted.count, 0),
        exact: counts.every((counted) => counted.exact),
      };
    }),
  );
  const total = perStatus.reduce((sum, row) => sum + row.count, 0);
  const documents = (n: number) => text.count.documents(intent.types as InvoiceType[], n);
  const qualifier =
    intent.statuses === 'OPEN' ? text.count.open[context.level === 'SUPPLIER' ? 'supplier' : 'staff'] : '';
  const who = context.level === 'SUPPLIER' ? text.count.youHave : text.count.thereAre;
  const link = {
    text: text.count.link,
    href: `/invoices?${new URLSearchParams({
      invoiceStatus: statuses.join(','),
      ...(invoiceType ? { invoiceType } : {}),
    })}`,
  };
  if (total === 0) {
    const none = context.level === 'SUPPLIER' ? text.count.noneYou : text.count.noneThere;
    return { text: none(documents(2), qualifier), link };
  }
  const single = perStatus.length === 1 ? perStatus[0]! : null;
  if (single) {
    return {
      text: text.count.inStatus(who, single.count, documents(single.count), INVOICE_STATUS_LABELS[single.status]),
      link,
    };
  }
  return {
    text: text.count.total(who, total, documents(total), qualifier),
    lists: [
      {
        items: perStatus
          .filter((row) => row.count > 0)
          .map((row) => text.count.statusLine(INVOICE_STATUS_LABELS[row.status], row.count)),
      },
    ],
    note:
      intent.statuses === 'OPEN' ? text.count.openNote[context.level === 'SUPPLIER' ? 'supplier' : 'staff'] : undefined,
    link,
  };
}

/** Answers one question; a failed call is told in the conversation by spec §8's display rule. */
export async function answer(intent: Intent, context: AnswerContext): Promise<Answer> {
  switch (intent.kind) {
    case 'help':
      return { text: text.help };
    case 'unknown':
      return { text: text.unknown };
    case 'howTo':
      return HOW_TO[intent.topic]();
    case 'invoiceStatus':
    case 'paymentDate':
    case 'payments':
    case 'count':
      try {
        if (intent.kind === 'count') return await count(intent, context);
        if (intent.kind === 'paymentDate') return await paymentDate(intent.number, context);
        return intent.kind === 'payments' ? await payments(context) : await invoiceStatus(intent.number, context);
      } catch (error) {
        return { text: `${text.invoice.failed} ${errorMessage(error)}` };
      }
  }
}
