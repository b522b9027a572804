import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import * as z from 'zod/mini';
import { SAP_ENV, SAP_WITHHOLDING_TAX, type SapWithholdingKind } from '@portal/shared';
import { telemetry } from '../observability/telemetry.js';

/**
 * S/4HANA's supplier-invoice API (API_SUPPLIERINVOICE_PROCESS_SRV, OData V2): a CSRF token fetched
 * with the service root and kept with its session cookies, then the A_SupplierInvoice deep insert
 * that posts the MIRO and answers the document number and fiscal year. Each posting carries
 * `Repeatability-Request-ID` (SAP's repeatable-request pattern): a repeated request answers the
 * document of the first one and posts nothing. Also the payment runs, read as OData since a moment.
 */

export const SUPPLIER_INVOICE_SERVICE = '/sap/opu/odata/sap/API_SUPPLIERINVOICE_PROCESS_SRV';
/** The payment runs as the portal reads them (a custom OData service on the SAP side). */
export const PAYMENT_RUN_SERVICE = '/sap/opu/odata/sap/ZPORTAL_PAYMENT_RUN_SRV';

export const SapCredentials = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('basic'),
    username: z.string().check(z.minLength(1)),
    password: z.string().check(z.minLength(1)),
  }),
  z.object({
    type: z.literal('oauth'),
    tokenUrl: z.url(),
    clientId: z.string().check(z.minLength(1)),
    clientSecret: z.string().check(z.minLength(1)),
    scope: z.optional(z.string()),
  }),
]);
export type SapCredentials = z.infer<typeof SapCredentials>;

export const SapCompanyCodes = z.record(z.string(), z.string().check(z.minLength(1)));

/** One line of the MIRO: a purchase-order item and the conformity document that receives it. */
export interface SupplierInvoiceItem {
  readonly purchaseOrder: string;
  readonly purchaseOrderItem: string;
  /** Net amount of the line (the HES or MIGO amount). */
  readonly amount: number;
  /** HES (services). */
  readonly serviceEntrySheet?: string | null;
  /** MIGO material document and its fiscal year (goods). */
  readonly referenceDocument?: string | null;
  readonly referenceDocumentFiscalYear?: string | null;
}

/** A withholding the MIRO carries (docs/ap-payment.md): the detracción or the retención del IGV. */
export interface SupplierInvoiceWithholding {
  readonly kind: SapWithholdingKind;
  /** In the document's currency: the invoice's total, and what is withheld of it. */
  readonly baseAmount: number;
  readonly amount: number;
}

/** The supplier invoice to post, as the portal holds it. */
export interface SupplierInvoicePosting {
  /** Same key, same document: the outbox record's key. */
  readonly idempotencyKey: string;
  /** RUC of the group company; mapped to its company code by configuration. */
  readonly client: string;
  /** RUC of the supplier: the invoicing party. */
  readonly supplierId: string;
  /** series-number, e.g. F001-123. */
  readonly supplierInvoiceId: string;
  /** yyyy-mm-dd */
  readonly documentDate: string;
  /** yyyy-mm-dd */
  readonly postingDate: string;
  readonly currency: string;
  readonly grossAmount: number;
  readonly taxAmount: number;
  /** A credit note is posted as a credit memo (SupplierInvoiceIsCreditMemo 'X'). */
  readonly creditMemo: boolean;
  /**
   * A note (issue 21): a subsequent credit or debit (IsSubsequentDebitCredit 'X' on its lines: a price adjustment of
   * the order, no quantity) against the original's SAP document (InvoiceReference, InvoiceReferenceFiscalYear).
   */
  readonly adjusts?: SapDocument | null;
  readonly items: readonly SupplierInvoiceItem[];
  /** Withholding tax data of the header (A_SuplrInvcHeaderWhldgTax); none when nothing is withheld. */
  readonly withholdings?: readonly SupplierInvoiceWithholding[];
}

export interface SapDocument {
  readonly number: string;
  readonly fiscalYear: string;
}

/** An invoice in a payment run: scheduled, and paid once paidAt is known. */
export interface PaymentRunItem {
  readonly supplierId: string;
  readonly invoiceId: string;
  readonly invoiceType: string | null;
  /** yyyy-mm-dd */
  readonly scheduledAt: string;
  readonly paidAt: string | null;
  /** ISO date-time of the last change of the item in SAP: the sync's cursor. */
  readonly changedAt: string;
  /** The payment document once paid (the remittance); null before, or when SAP does not report it. */
  readonly payment?: {
    readonly document: string;
    readonly fiscalYear: string | null;
    readonly method: string;
    readonly methodName: string;
    readonly amount: number | null;
    readonly currency: string | null;
  } | null;
}

/** What identifies a posted supplier invoice in SAP besides its document number (see findSupplierInvoice). */
export interface SupplierInvoiceReference {
  readonly client: string;
  readonly supplierId: string;
  readonly supplierInvoiceId: string;
  readonly creditMemo: boolean;
  /**
   * A debit note's subsequent debit (an InvoiceReference set): told apart from an invoice of the same supplier and
   * series-number, which SUNAT numbers apart (a factura F001-5 and a nota de débito F001-5 may both exist).
   */
  readonly adjustment?: boolean;
}

export interface SapPort {
  postSupplierInvoice(posting: SupplierInvoicePosting): Promise<SapDocument>;
  /**
   * The document SAP holds for this supplier's invoice at this company (not reversed), or null: how a
   * posting that SAP made but whose answer was lost is found again.
   */
  findSupplierInvoice(reference: SupplierInvoiceReference): Promise<SapDocument | null>;
  /** Payment-run items changed at or after `since` (all when null), oldest change first. */
  paymentRunItemsSince(since: string | null): Promise<PaymentRunItem[]>;
}

/** SAP answered or failed in a way the caller may retry later (transport, 5xx, an unreadable answer). */
export class SapUnavailableError extends Error {
  override readonly name = 'SapUnavailableError';
}

/** SAP refused the request (4xx): retrying the same request gives the same answer. */
export class SapRejectedError extends Error {
  override readonly name = 'SapRejectedError';
  constructor(
    readonly status: number,
    readonly sapMessage: string,
  ) {
    super(`SAP rejected the request (${status}): ${sapMessage}`);
  }
}

/** OData V2's date literal. */
export function odataDate(isoDate: string): string {
  return `/Date(${Date.parse(`${isoDate.slice(0, 10)}T00:00:00Z`)})/`;
}

/** An OData V2 `/Date(ms)/` (or an ISO string) as an ISO date-time. */
export function fromOdataDate(value: string): string {
  const ms = /^\/Date\((-?\d+)(?:[+-]\d+)?\)\/$/.exec(value)?.[1];
  return new Date(ms === undefined ? value : Number(ms)).toISOString();
}

const decimal = (amount: number) => amount.toFixed(2);

/** An OData Edm.Decimal of a paid amount ('1038.40'), to the cent; null when absent or unreadable. */
function paidAmount(value: string | null | undefined): number | null {
  if (!value || !/^\d+(\.\d+)?$/.test(value)) return null;
  return Math.round(Number(value) * 100) / 100;
}

const PostedAnswer = z.object({
  d: z.object({
    SupplierInvoice: z.string().check(z.minLength(1)),
    FiscalYear: z.string().check(z.minLength(4)),
  }),
});
const FoundAnswer = z.object({
  d: z.object({
    results: z.array(
      z.object({
        SupplierInvoice: z.string().check(z.minLength(1)),
        FiscalYear: z.string().check(z.minLength(4)),
        SupplierInvoiceIsCreditMemo: z.nullish(z.string()),
        InvoiceReference: z.nullish(z.string()),
        ReverseDocument: z.nullish(z.string()),
      }),
    ),
  }),
});
/** An OData V2 string literal: single quotes doubled. */
const odataString = (value: string) => `'${value.replace(/'/g, "''")}'`;
const PaymentRunAnswer = z.object({
  d: z.object({
    results: z.array(
      z.object({
        InvoicingParty: z.string(),
        SupplierInvoiceIDByInvcgParty: z.string(),
        PortalInvoiceType: z.nullish(z.string()),
        ScheduledPaymentDate: z.string(),
        PaymentDate: z.nullish(z.string()),
        LastChangeDateTime: z.string(),
        // The remittance, once paid.
        PaymentDocument: z.nullish(z.string()),
        PaymentDocumentFiscalYear: z.nullish(z.string()),
        PaymentMethod: z.nullish(z.string()),
        PaymentMethodName: z.nullish(z.string()),
        PaidAmount: z.nullish(z.string()),
        PaymentCurrency: z.nullish(z.string()),
      }),
    ),
    __next: z.nullish(z.string()),
  }),
});
const ErrorAnswer = z.object({ error: z.object({ message: z.object({ value: z.string() }) }) });
const TokenAnswer = z.object({
  access_token: z.string().check(z.minLength(1)),
  expires_in: z.coerce.number().check(z.positive()),
});

export interface SapClientOptions {
  readonly baseUrl: string;
  readonly credentials: () => Promise<SapCredentials>;
  readonly companyCodes: Readonly<Record<string, string>>;
  readonly fetch?: typeof fetch;
  /** Per request. @default 5000 */
  readonly timeoutMs?: number;
  /** Tries per request (transport errors and 5xx). @default 3 */
  readonly maxAttempts?: number;
  /** First backoff; doubles per try, with full jitter. @default 200 */
  readonly baseDelayMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
}

interface Session {
  readonly token: string;
  readonly cookie: string;
}

/** Worst case with the defaults: 3 × 5 s plus backoff per request; the token is fetched once per cold start. */
export function makeSapClient(options: SapClientOptions): SapPort {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 5000;
  const maxAttempts = options.maxAttempts ?? 3;
  const baseDelayMs = options.baseDelayMs ?? 200;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const base = options.baseUrl.replace(/\/+$/, '');
  let session: Promise<Session> | null = null;
  let oauth: { token: string; until: number } | null = null;

  async function authorization(): Promise<string> {
    const credentials = await options.credentials();
    if (credentials.type === 'basic') {
      return `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
    }
    if (oauth && oauth.until > Date.now()) return `Bearer ${oauth.token}`;
    const body = new URLSearchParams({ grant_type: 'client_credentials' });
    if (credentials.scope) body.set('scope', credentials.scope);
    const response = await send(credentials.tokenUrl, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: body.toString(),
    });
    if (!response.ok) throw new SapRejectedError(response.status, 'OAuth token refused');
    const answer = TokenAnswer.safeParse(await response.json().catch(() => null));
    if (!answer.success) throw new SapUnavailableError('unreadable OAuth token answer');
    oauth = { token: answer.data.access_token, until: Date.now() + (answer.data.expires_in - 60) * 1000 };
    return `Bearer ${oauth.token}`;
  }

  /** One request with retries on transport errors, timeouts, 429 and 5xx; other answers are returned. */
  async function send(url: string, init: RequestInit): Promise<Response> {
    let lastProblem = '';
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      try {
        const response = await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
        if (response.status < 500 && response.status !== 429) return response;
        lastProblem = `HTTP ${response.status}`;
        await response.body?.cancel();
      } catch (error) {
        lastProblem = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      }
      if (attempt < maxAttempts) await sleep(Math.random() * baseDelayMs * 2 ** (attempt - 1));
    }
    throw new SapUnavailableError(`SAP did not answer ${init.method ?? 'GET'} ${url}: ${lastProblem}`);
  }

  async function fetchSession(): Promise<Session> {
    const response = await send(`${base}${SUPPLIER_INVOICE_SERVICE}/`, {
      method: 'GET',
      headers: { authorization: await authorization(), 'x-csrf-token': 'Fetch', accept: 'application/json' },
    });
    const token = response.headers.get('x-csrf-token');
    await response.body?.cancel();
    if (!response.ok || !token) throw new SapUnavailableError(`no CSRF token (HTTP ${response.status})`);
    const cookie = response.headers
      .getSetCookie()
      .map((line) => line.split(';')[0]!.trim())
      .filter(Boolean)
      .join('; ');
    return { token, cookie };
  }

  function currentSession(): Promise<Session> {
    session ??= fetchSession().catch((error: unknown) => {
      session = null;
      throw error;
    });
    return session;
  }

  async function sapMessage(response: Response): Promise<string> {
    const parsed = ErrorAnswer.safeParse(await response.json().catch(() => null));
    return parsed.success ? parsed.data.error.message.value : `HTTP ${response.status}`;
  }

  function companyCodeOf(client: string): string {
    const code = options.companyCodes[client];
    if (!code) throw new SapRejectedError(400, `no SAP company code configured for company ${client}`);
    return code;
  }

  function payload(posting: SupplierInvoicePosting) {
    return {
      CompanyCode: companyCodeOf(posting.client),
      DocumentDate: odataDate(posting.documentDate),
      PostingDate: odataDate(posting.postingDate),
      InvoicingParty: posting.supplierId,
      // S/4HANA's credit-memo indicator on the header (a single-character flag): 'X' credit memo, '' invoice.
      SupplierInvoiceIsCreditMemo: posting.creditMemo ? 'X' : '',
      ...(posting.adjusts
        ? { InvoiceReference: posting.adjusts.number, InvoiceReferenceFiscalYear: posting.adjusts.fiscalYear }
        : {}),
      SupplierInvoiceIDByInvcgParty: posting.supplierInvoiceId,
      DocumentCurrency: posting.currency,
      InvoiceGrossAmount: decimal(posting.grossAmount),
      to_SupplierInvoiceTax: {
        results:
          posting.taxAmount > 0 ? [{ DocumentCurrency: posting.currency, TaxAmount: decimal(posting.taxAmount) }] : [],
      },
      to_SuplrInvcItemPurOrdRef: {
        results: posting.items.map((item, i) => ({
          SupplierInvoiceItem: String(i + 1).padStart(6, '0'),
          PurchaseOrder: item.purchaseOrder,
          PurchaseOrderItem: item.purchaseOrderItem,
          DocumentCurrency: posting.currency,
          SupplierInvoiceItemAmount: decimal(item.amount),
          ...(posting.adjusts ? { IsSubsequentDebitCredit: 'X' } : {}),
          ...(item.serviceEntrySheet ? { ServiceEntrySheet: item.serviceEntrySheet } : {}),
          ...(item.referenceDocument
            ? {
                ReferenceDocument: item.referenceDocument,
                ReferenceDocumentFiscalYear: item.referenceDocumentFiscalYear ?? posting.documentDate.slice(0, 4),
              }
            : {}),
        })),
      },
      ...(posting.withholdings && posting.withholdings.length > 0
        ? {
            to_SuplrInvcHeaderWhldgTax: {
              results: posting.withholdings.map((withholding) => ({
                WithholdingTaxType: SAP_WITHHOLDING_TAX[withholding.kind].type,
                WithholdingTaxCode: SAP_WITHHOLDING_TAX[withholding.kind].code,
                DocumentCurrency: posting.currency,
                WithholdingTaxBaseAmount: decimal(withholding.baseAmount),
                ManuallyEnteredWhldgTaxAmount: decimal(withholding.amount),
              })),
            },
          }
        : {}),
    };
  }

  return {
    async postSupplierInvoice(posting) {
      const body = JSON.stringify(payload(posting));
      // A 403 asking for the token means the session expired: one fresh token, then give up.
      for (let csrfTry = 1; ; csrfTry++) {
        const current = await currentSession();
        const response = await send(`${base}${SUPPLIER_INVOICE_SERVICE}/A_SupplierInvoice`, {
          method: 'POST',
          headers: {
            authorization: await authorization(),
            'x-csrf-token': current.token,
            ...(current.cookie ? { cookie: current.cookie } : {}),
            'content-type': 'application/json',
            accept: 'application/json',
            'Repeatability-Request-ID': posting.idempotencyKey,
            'Repeatability-First-Sent': new Date().toUTCString(),
          },
          body,
        });
        if (response.status === 403 && response.headers.get('x-csrf-token')?.toLowerCase() === 'required') {
          await response.body?.cancel();
          if (csrfTry >= 2) throw new SapUnavailableError('SAP kept refusing the CSRF token');
          session = null;
          continue;
        }
        if (!response.ok) throw new SapRejectedError(response.status, await sapMessage(response));
        const answer = PostedAnswer.safeParse(await response.json().catch(() => null));
        if (!answer.success) throw new SapUnavailableError('unreadable A_SupplierInvoice answer');
        return { number: answer.data.d.SupplierInvoice, fiscalYear: answer.data.d.FiscalYear };
      }
    },

    /**
     * GET A_SupplierInvoice filtered by company code, invoicing party and the supplier's own invoice
     * reference (SupplierInvoiceIDByInvcgParty): the standard entity set is readable with $filter on
     * these header fields. The Repeatability-Request-ID itself cannot be queried in S/4HANA, so the
     * reference is the key; a credit memo and an invoice with the same reference are told apart by
     * SupplierInvoiceIsCreditMemo, a note's subsequent debit by its InvoiceReference, and a reversed document
     * (ReverseDocument set) does not count as posted.
     */
    async findSupplierInvoice(reference) {
      const filter = [
        `CompanyCode eq ${odataString(companyCodeOf(reference.client))}`,
        `InvoicingParty eq ${odataString(reference.supplierId)}`,
        `SupplierInvoiceIDByInvcgParty eq ${odataString(reference.supplierInvoiceId)}`,
      ].join(' and ');
      const query = [
        ['$format', 'json'],
        ['$filter', filter],
        ['$select', 'SupplierInvoice,FiscalYear,SupplierInvoiceIsCreditMemo,InvoiceReference,ReverseDocument'],
      ]
        .map(([name, value]) => `${name}=${encodeURIComponent(value!)}`)
        .join('&');
      const response = await send(`${base}${SUPPLIER_INVOICE_SERVICE}/A_SupplierInvoice?${query}`, {
        method: 'GET',
        headers: { authorization: await authorization(), accept: 'application/json' },
      });
      if (!response.ok) throw new SapRejectedError(response.status, await sapMessage(response));
      const answer = FoundAnswer.safeParse(await response.json().catch(() => null));
      if (!answer.success) throw new SapUnavailableError('unreadable A_SupplierInvoice query answer');
      const found = answer.data.d.results.find(
        (row) =>
          !row.ReverseDocument &&
          (row.SupplierInvoiceIsCreditMemo === 'X') === reference.creditMemo &&
          (reference.creditMemo || Boolean(row.InvoiceReference) === (reference.adjustment ?? false)),
      );
      return found ? { number: found.SupplierInvoice, fiscalYear: found.FiscalYear } : null;
    },

    async paymentRunItemsSince(since) {
      const items: PaymentRunItem[] = [];
      // OData wants %20 for spaces (URLSearchParams would write '+').
      const query = [
        ['$format', 'json'],
        ['$orderby', 'LastChangeDateTime asc'],
        ['$top', '500'],
        ...(since ? [['$filter', `LastChangeDateTime ge datetimeoffset'${since}'`]] : []),
      ]
        .map(([name, value]) => `${name}=${encodeURIComponent(value!)}`)
        .join('&');
      let url: string | null = `${base}${PAYMENT_RUN_SERVICE}/PaymentRunItems?${query}`;
      while (url) {
        const response = await send(url, {
          method: 'GET',
          headers: { authorization: await authorization(), accept: 'application/json' },
        });
        if (!response.ok) throw new SapRejectedError(response.status, await sapMessage(response));
        const answer = PaymentRunAnswer.safeParse(await response.json().catch(() => null));
        if (!answer.success) throw new SapUnavailableError('unreadable PaymentRunItems answer');
        for (const row of answer.data.d.results) {
          items.push({
            supplierId: row.InvoicingParty,
            invoiceId: row.SupplierInvoiceIDByInvcgParty,
            invoiceType: row.PortalInvoiceType ?? null,
            scheduledAt: fromOdataDate(row.ScheduledPaymentDate).slice(0, 10),
            paidAt: row.PaymentDate ? fromOdataDate(row.PaymentDate).slice(0, 10) : null,
            changedAt: fromOdataDate(row.LastChangeDateTime),
            payment:
              row.PaymentDate && row.PaymentDocument
                ? {
                    document: row.PaymentDocument,
                    fiscalYear: row.PaymentDocumentFiscalYear ?? null,
                    method: row.PaymentMethod ?? '',
                    methodName: row.PaymentMethodName || row.PaymentMethod || 'No informado por SAP',
                    amount: paidAmount(row.PaidAmount),
                    currency: row.PaymentCurrency ?? null,
                  }
                : null,
          });
        }
        const next = answer.data.d.__next;
        url = next ? new URL(next, base).toString() : null;
      }
      return items;
    },
  };
}

/** Credentials from SAP_CREDENTIALS, or from the Secrets Manager secret, read once per cold start. */
function credentialsFromEnv(): () => Promise<SapCredentials> {
  let loaded: Promise<SapCredentials> | null = null;
  return () => {
    loaded ??= (async () => {
      const inline = process.env[SAP_ENV.credentials];
      if (inline) return SapCredentials.parse(JSON.parse(inline));
      const arn = process.env[SAP_ENV.credentialsSecretArn];
      if (!arn) throw new Error(`${SAP_ENV.credentials} or ${SAP_ENV.credentialsSecretArn} must be set`);
      const secrets = telemetry.instrumentClient(new SecretsManagerClient({}));
      const secret = await secrets.send(new GetSecretValueCommand({ SecretId: arn }));
      return SapCredentials.parse(JSON.parse(secret.SecretString ?? 'null'));
    })().catch((error: unknown) => {
      loaded = null;
      throw error;
    });
    return loaded;
  };
}

/** The SAP client of this stage, from the environment CDK (or the local stage) set. */
export function sapFromEnv(): SapPort {
  const baseUrl = process.env[SAP_ENV.baseUrl];
  if (!baseUrl) throw new Error(`${SAP_ENV.baseUrl} is not set`);
  return makeSapClient({
    baseUrl,
    credentials: credentialsFromEnv(),
    companyCodes: SapCompanyCodes.parse(JSON.parse(process.env[SAP_ENV.companyCodes] ?? '{}')),
  });
}
