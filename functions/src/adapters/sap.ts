import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import * as z from 'zod/mini';
import { SAP_ENV } from '@portal/shared';
import { telemetry } from '../observability/telemetry.js';
import {
  PAYMENT_RUN_SERVICE,
  SUPPLIER_INVOICE_SERVICE,
  SapCredentials,
  SapRejectedError,
  SapUnavailableError,
  authorization,
  currentSession,
  sapConnection,
  sapMessage,
  send,
  type SapClientOptions,
  type SapConnection,
} from './sap-http.js';
import {
  FoundAnswer,
  PaymentRunAnswer,
  PostedAnswer,
  odataQuery,
  odataString,
  paymentRunItemOf,
  supplierInvoicePayload,
} from './sap-odata.js';
import type {
  PaymentRunItem,
  SapDocument,
  SapPort,
  SupplierInvoicePosting,
  SupplierInvoiceReference,
} from './sap-port.js';

export {
  PAYMENT_RUN_SERVICE,
  SUPPLIER_INVOICE_SERVICE,
  SapCredentials,
  SapRejectedError,
  SapUnavailableError,
  type SapClientOptions,
} from './sap-http.js';
export { fromOdataDate, odataDate } from './sap-odata.js';
export type * from './sap-port.js';

/**
 * S/4HANA's supplier-invoice API (API_SUPPLIERINVOICE_PROCESS_SRV, OData V2): a CSRF token fetched
 * with the service root and kept with its session cookies, then the A_SupplierInvoice deep insert
 * that posts the MIRO and answers the document number and fiscal year. Each posting carries
 * `Repeatability-Request-ID` (SAP's repeatable-request pattern): a repeated request answers the
 * document of the first one and posts nothing. Also the payment runs, read as OData since a moment.
 */

export const SapCompanyCodes = z.record(z.string(), z.string().check(z.minLength(1)));

function companyCodeOf(connection: SapConnection, client: string): string {
  const code = connection.options.companyCodes[client];
  if (!code) throw new SapRejectedError(400, `no SAP company code configured for company ${client}`);
  return code;
}

/** Posts the MIRO (A_SupplierInvoice deep insert), once per idempotency key. */
async function postSupplierInvoice(connection: SapConnection, posting: SupplierInvoicePosting): Promise<SapDocument> {
  const body = JSON.stringify(supplierInvoicePayload(posting, companyCodeOf(connection, posting.client)));
  // A 403 asking for the token means the session expired: one fresh token, then give up.
  for (let csrfTry = 1; ; csrfTry++) {
    const current = await currentSession(connection);
    const response = await send(connection, `${connection.base}${SUPPLIER_INVOICE_SERVICE}/A_SupplierInvoice`, {
      method: 'POST',
      headers: {
        authorization: await authorization(connection),
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
      connection.session = null;
      continue;
    }
    if (!response.ok) throw new SapRejectedError(response.status, await sapMessage(response));
    const answer = PostedAnswer.safeParse(await response.json().catch(() => null));
    if (!answer.success) throw new SapUnavailableError('unreadable A_SupplierInvoice answer');
    return { number: answer.data.d.SupplierInvoice, fiscalYear: answer.data.d.FiscalYear };
  }
}

/**
 * GET A_SupplierInvoice filtered by company code, invoicing party and the supplier's own invoice
 * reference (SupplierInvoiceIDByInvcgParty): the standard entity set is readable with $filter on
 * these header fields. The Repeatability-Request-ID itself cannot be queried in S/4HANA, so the
 * reference is the key; a credit memo and an invoice with the same reference are told apart by
 * SupplierInvoiceIsCreditMemo, a note's subsequent debit by its InvoiceReference, and a reversed document
 * (ReverseDocument set) does not count as posted.
 */
async function findSupplierInvoice(
  connection: SapConnection,
  reference: SupplierInvoiceReference,
): Promise<SapDocument | null> {
  const filter = [
    `CompanyCode eq ${odataString(companyCodeOf(connection, reference.client))}`,
    `InvoicingParty eq ${odataString(reference.supplierId)}`,
    `SupplierInvoiceIDByInvcgParty eq ${odataString(reference.supplierInvoiceId)}`,
  ].join(' and ');
  const query = odataQuery([
    ['$format', 'json'],
    ['$filter', filter],
    ['$select', 'SupplierInvoice,FiscalYear,SupplierInvoiceIsCreditMemo,InvoiceReference,ReverseDocument'],
  ]);
  const response = await send(connection, `${connection.base}${SUPPLIER_INVOICE_SERVICE}/A_SupplierInvoice?${query}`, {
    method: 'GET',
    headers: { authorization: await authorization(connection), accept: 'application/json' },
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
}

/** The payment runs' items changed since `since` (all of them without it), page after page, oldest change first. */
async function paymentRunItemsSince(connection: SapConnection, since: string | null): Promise<PaymentRunItem[]> {
  const items: PaymentRunItem[] = [];
  const query = odataQuery([
    ['$format', 'json'],
    ['$orderby', 'LastChangeDateTime asc'],
    ['$top', '500'],
    ...(since ? [['$filter', `LastChangeDateTime ge datetimeoffset'${since}'`] as const] : []),
  ]);
  let url: string | null = `${connection.base}${PAYMENT_RUN_SERVICE}/PaymentRunItems?${query}`;
  while (url) {
    const response = await send(connection, url, {
      method: 'GET',
      headers: { authorization: await authorization(connection), accept: 'application/json' },
    });
    if (!response.ok) throw new SapRejectedError(response.status, await sapMessage(response));
    const answer = PaymentRunAnswer.safeParse(await response.json().catch(() => null));
    if (!answer.success) throw new SapUnavailableError('unreadable PaymentRunItems answer');
    items.push(...answer.data.d.results.map(paymentRunItemOf));
    const next = answer.data.d.__next;
    url = next ? new URL(next, connection.base).toString() : null;
  }
  return items;
}

export function makeSapClient(options: SapClientOptions): SapPort {
  const connection = sapConnection(options);
  return {
    postSupplierInvoice: (posting) => postSupplierInvoice(connection, posting),
    findSupplierInvoice: (reference) => findSupplierInvoice(connection, reference),
    paymentRunItemsSince: (since) => paymentRunItemsSince(connection, since),
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
