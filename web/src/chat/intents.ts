/**
 * What the built-in assistant understands: an invoice number, the payment question, or one of the
 * portal's how-to topics, each found by its keywords. Pure, so the table is easy to extend.
 */
import type { InvoiceStatus, InvoiceType } from '@portal/shared';

export type HowToTopic = 'uploadXml' | 'withoutXml' | 'statuses' | 'approver' | 'emails' | 'password';

/**
 * Which invoices a "how many" question asks about: the statuses named ("pagadas"), the open ones ("pendientes",
 * read by the asker's role), or all; and the document types named ("facturas"), or all.
 */
export type CountedStatuses = readonly InvoiceStatus[] | 'OPEN' | 'ALL';

export type Intent =
  | { readonly kind: 'invoiceStatus'; readonly number: string }
  /** "¿Cuándo me pagan la F001-123?": the payment date of one invoice (docs/ap-payment.md). */
  | { readonly kind: 'paymentDate'; readonly number: string }
  | { readonly kind: 'count'; readonly statuses: CountedStatuses; readonly types: readonly InvoiceType[] }
  | { readonly kind: 'payments' }
  | { readonly kind: 'howTo'; readonly topic: HowToTopic }
  | { readonly kind: 'help' }
  | { readonly kind: 'unknown' };

/** Lower case, without accents or punctuation: '¿Cuándo me pagarán?' → 'cuando me pagaran'. */
export function normalize(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9ñ@\- ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A SUNAT document number: a four-character series, a dash and a correlative of 1 to 8 digits. A
 * date such as 2026-11-30 is not one (its "correlative" is followed by another dash and digits).
 */
const INVOICE_NUMBER = /(?:^|[^A-Za-z0-9])([A-Za-z0-9]{4})\s*-\s*(\d{1,8})(?![0-9]|-\d)/;

/** The invoice number in a question, upper case as SUNAT issues it ('f001-123' → 'F001-123'). */
export function invoiceNumberIn(question: string): string | null {
  const match = INVOICE_NUMBER.exec(question);
  return match ? `${match[1]!.toUpperCase()}-${match[2]!}` : null;
}

const PAYMENT_PHRASES = [
  'cuando me pagan',
  'cuando me pagaran',
  'cuando me van a pagar',
  'cuando pagan',
  'cuando cobro',
  'cuando voy a cobrar',
  'fecha de pago',
  'fechas de pago',
  'mis pagos',
  'me pagan',
  'programacion de pago',
];

/** The start of a "how many" question. */
const COUNT_PHRASES = ['cuantas', 'cuantos', 'cuanto', 'cuanta', 'numero de', 'cantidad de', 'total de'];

/** Status words, by their stem ("pagada", "pagados"…), and the statuses they name. */
const STATUS_WORDS: readonly [RegExp, readonly InvoiceStatus[]][] = [
  [/\b(por revisar|debe revisar|sin revisar)\b/, ['PENDING']],
  [/\bcompletad/, ['COMPLETED']],
  [/\b(aprobad|aceptad)/, ['ACCEPTED']],
  [/\brechazad/, ['REJECTED']],
  [/\bprogramad/, ['SCHEDULED']],
  [/\b(pagad|cobrad)/, ['PAID']],
];
const OPEN_WORDS = /\b(pendiente|por pagar|sin pagar|por cobrar|sin cobrar|en proceso|abiert)/;

/** Document words and their types; "comprobantes" or "documentos" name them all. */
const TYPE_WORDS: readonly [RegExp, InvoiceType][] = [
  [/\bfactura/, 'FACTURA'],
  [/\bboleta/, 'BOLETA'],
  [/\bnotas? de credito/, 'NOTA_DE_CREDITO'],
  [/\bnotas? de debito/, 'NOTA_DE_DEBITO'],
  [/\b(recibos? por honorarios|honorarios)/, 'RECIBO_POR_HONORARIOS'],
];

/** A "how many" question, or null: which statuses and types it counts. */
function countQuestion(text: string): Extract<Intent, { kind: 'count' }> | null {
  if (!COUNT_PHRASES.some((phrase) => containsPhrase(text, phrase))) return null;
  const named = STATUS_WORDS.filter(([words]) => words.test(text)).flatMap(([, statuses]) => statuses);
  const statuses: CountedStatuses = named.length > 0 ? named : OPEN_WORDS.test(text) ? 'OPEN' : 'ALL';
  const types = TYPE_WORDS.filter(([words]) => words.test(text.replace(/\bfacturacion\b/g, ''))).map(
    ([, type]) => type,
  );
  return { kind: 'count', statuses, types };
}

interface TopicRule {
  readonly topic: HowToTopic | 'help';
  /** Phrases looked for in the normalized question; a longer phrase weighs more. */
  readonly phrases: readonly string[];
}

/** The intent table of the how-to questions. */
export const TOPICS: readonly TopicRule[] = [
  {
    topic: 'withoutXml',
    phrases: [
      'sin xml',
      'sin el xml',
      'sin archivo xml',
      'no tengo xml',
      'no tengo el xml',
      'nuevo comprobante',
      'manual',
    ],
  },
  { topic: 'uploadXml', phrases: ['xml', 'cargar', 'subir', 'subo', 'cargo', 'registrar', 'enviar', 'adjuntar'] },
  {
    topic: 'statuses',
    phrases: ['estados', 'estado', 'significa', 'significan', 'leyenda', 'debe revisar', 'completado'],
  },
  {
    topic: 'approver',
    phrases: ['aprueba', 'aprueban', 'aprobar', 'aprobacion', 'rechaza', 'rechazo', 'rechazan', 'revisa', 'gestor'],
  },
  {
    topic: 'emails',
    phrases: ['correo', 'correos', 'email', 'e-mail', 'mail', 'notificacion', 'notificaciones', 'aviso'],
  },
  {
    topic: 'password',
    phrases: ['contrasena', 'clave', 'password', 'restablecer', 'olvide', 'olvido', 'recuperar mi cuenta'],
  },
  { topic: 'help', phrases: ['ayuda', 'hola', 'que puedes', 'que sabes', 'buenos dias', 'buenas tardes', 'menu'] },
];

function containsPhrase(text: string, phrase: string): boolean {
  return ` ${text} `.includes(` ${phrase} `) || (phrase.length > 5 && text.includes(phrase));
}

/**
 * Reads a question: an invoice number wins (its payment date when the question is about paying it, else its
 * status), then a "how many" question, then the payment question, then the best-scoring topic.
 */
export function understand(question: string): Intent {
  const number = invoiceNumberIn(question);
  const text = normalize(question);
  if (number) {
    const aboutPayment =
      PAYMENT_PHRASES.some((phrase) => containsPhrase(text, phrase)) || /\bpag(o|an|aran)\b/.test(text);
    return aboutPayment ? { kind: 'paymentDate', number } : { kind: 'invoiceStatus', number };
  }
  if (!text) return { kind: 'unknown' };
  const count = countQuestion(text);
  if (count) return count;
  if (PAYMENT_PHRASES.some((phrase) => containsPhrase(text, phrase))) return { kind: 'payments' };

  let best: { topic: HowToTopic | 'help'; score: number } | null = null;
  for (const rule of TOPICS) {
    const score = rule.phrases
      .filter((phrase) => containsPhrase(text, phrase))
      .reduce((sum, phrase) => sum + phrase.split(' ').length, 0);
    if (score > 0 && (!best || score > best.score)) best = { topic: rule.topic, score };
  }
  if (!best) return { kind: 'unknown' };
  return best.topic === 'help' ? { kind: 'help' } : { kind: 'howTo', topic: best.topic };
}
