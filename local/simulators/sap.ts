import { randomUUID } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, truncateSync, writeSync } from 'node:fs';
import {
  IGV_RETENTION_PERCENT,
  IGV_RETENTION_THRESHOLD_PEN,
  SAP_WITHHOLDING_TAX,
  percentOfCents,
  toBasisPoints,
  toCents,
  type Client,
  type SapWithholdingKind,
} from '@portal/shared';
import type { RunningService } from '../stand-ins/types.js';
import {
  CLIENTS,
  DEMO_PARTIES,
  buildWorld,
  type DemoParties,
  type SeedConformityDocument,
  type SeedPurchaseOrder,
} from '../seed/seed-data.js';
import { startSimulator, type SimRoute } from './http.js';

const SERVICE = '/sap/opu/odata/sap/API_SUPPLIERINVOICE_PROCESS_SRV';
const PAYMENT_SERVICE = '/sap/opu/odata/sap/ZPORTAL_PAYMENT_RUN_SRV';
const SESSION_COOKIE = 'SAP_SESSIONID_S4L_100';

/** The technical user the local stage's functions log on with (basic authentication). */
export const LOCAL_SAP_CREDENTIALS = { type: 'basic', username: 'PORTAL_RFC', password: 'portal-local' } as const;

/**
 * Company code of each company of the group on the local stage: 1000, 2000, 3000 in CLIENTS order; a test tenant's
 * companies (seed-data.ts tenantParties) take the next codes, 4000 on.
 */
export function localCompanyCodes(companies: readonly Client[] = CLIENTS): Record<string, string> {
  return Object.fromEntries(companies.map((client, i) => [client.taxId, String((i + 1) * 1000)]));
}

type PurchaseOrder = Pick<SeedPurchaseOrder, 'id' | 'issuerTaxId' | 'acquirerTaxId' | 'currency'>;
type ConformityDocument = Pick<
  SeedConformityDocument,
  'kind' | 'documentId' | 'purchaseOrder' | 'fiscalYear' | 'issuerTaxId' | 'acquirerTaxId' | 'amount' | 'currency'
>;

interface Posting {
  readonly document: string;
  readonly fiscalYear: string;
  readonly companyCode: string;
  readonly supplierId: string;
  readonly invoiceId: string;
  readonly requestId: string | null;
  readonly postedAt: string;
  /** False for a credit memo (postings journaled before `creditMemo` was kept). */
  readonly isInvoice?: boolean;
  /** SupplierInvoiceIsCreditMemo 'X' (a credit note). */
  readonly creditMemo?: boolean;
  /** The invoice a credit memo or subsequent debit adjusts (InvoiceReference, InvoiceReferenceFiscalYear). */
  readonly adjusts?: { readonly document: string; readonly fiscalYear: string } | null;
  readonly grossAmount?: number;
  readonly currency?: string;
  readonly purchaseOrders?: readonly string[];
  /** SAP's own, from before the portal (the demo world's): not one of the portal's postings. */
  readonly legacy?: boolean;
  /** The withholding tax data posted with it (absent on postings recorded before it was kept: none). */
  readonly withholdings?: readonly { kind: SapWithholdingKind; baseAmount: number; amount: number }[];
}

const isCreditMemo = (posting: Posting) => posting.creditMemo ?? posting.isInvoice === false;

/**
 * The properties of API_SUPPLIERINVOICE_PROCESS_SRV's A_SupplierInvoice (header, with its navigation properties) and
 * A_SuplrInvcItemPurOrdRef (purchase-order lines), as S/4HANA's metadata declares them: a deep insert naming any
 * other property is refused as S/4HANA refuses it.
 */
const HEADER_PROPERTIES = new Set([
  'SupplierInvoice',
  'FiscalYear',
  'CompanyCode',
  'DocumentDate',
  'PostingDate',
  'CreationDate',
  'SupplierInvoiceIDByInvcgParty',
  'InvoicingParty',
  'DocumentCurrency',
  'InvoiceGrossAmount',
  'UnplannedDeliveryCost',
  'DocumentHeaderText',
  'ManualCashDiscount',
  'PaymentTerms',
  'DueCalculationBaseDate',
  'CashDiscount1Percent',
  'CashDiscount1Days',
  'CashDiscount2Percent',
  'CashDiscount2Days',
  'NetPaymentDays',
  'PaymentBlockingReason',
  'AccountingDocumentType',
  'BPBankAccountInternalID',
  'SupplierInvoiceStatus',
  'IndirectQuotedExchangeRate',
  'DirectQuotedExchangeRate',
  'StateCentralBankPaymentReason',
  'SupplyingCountry',
  'PaymentMethod',
  'PaymentMethodSupplement',
  'PaymentReference',
  'InvoiceReference',
  'InvoiceReferenceFiscalYear',
  'FixedCashDiscount',
  'UnplannedDeliveryCostTaxCode',
  'UnplndDelivCostTaxJurisdiction',
  'UnplndDeliveryCostTaxCountry',
  'AssignmentReference',
  'SupplierPostingLineItemText',
  'TaxIsCalculatedAutomatically',
  'BusinessPlace',
  'BusinessSectionCode',
  'BusinessArea',
  'SuplrInvcIsCapitalGoodsRelated',
  'SupplierInvoiceIsCreditMemo',
  'PaytSlipWthRefSubscriber',
  'PaytSlipWthRefCheckDigit',
  'PaytSlipWthRefReference',
  'TaxDeterminationDate',
  'TaxReportingDate',
  'TaxFulfillmentDate',
  'InvoiceReceiptDate',
  'DeliveryOfGoodsReportingCntry',
  'SupplierVATRegistration',
  'IsEUTriangularDeal',
  'SuplrInvcDebitCrdtCodeDelivery',
  'SuplrInvcDebitCrdtCodeReturns',
  'RetentionDueDate',
  'PaymentReason',
  'HouseBank',
  'HouseBankAccount',
  'JrnlEntryCntrySpecificRef1',
  'JrnlEntryCntrySpecificDate1',
  'JrnlEntryCntrySpecificRef2',
  'JrnlEntryCntrySpecificDate2',
  'JrnlEntryCntrySpecificRef3',
  'JrnlEntryCntrySpecificDate3',
  'JrnlEntryCntrySpecificRef4',
  'JrnlEntryCntrySpecificDate4',
  'JrnlEntryCntrySpecificRef5',
  'JrnlEntryCntrySpecificDate5',
  'JrnlEntryCntrySpecificBP1',
  'JrnlEntryCntrySpecificBP2',
  'to_SelectedDeliveryNotes',
  'to_SelectedPurchaseOrders',
  'to_SelectedServiceEntrySheets',
  'to_SuplrInvcItemAsset',
  'to_SuplrInvcItemMaterial',
  'to_SuplrInvcItemPurOrdRef',
  'to_SuplrInvoiceAdditionalData',
  'to_SupplierInvoiceItemGLAcct',
  'to_SupplierInvoiceTax',
  'to_SupplierInvoiceWhldgTax',
  // The header's withholding taxes (A_SuplrInvcHeaderWhldgTax): the detracción and the retención del IGV.
  'to_SuplrInvcHeaderWhldgTax',
]);
const PURCHASE_ORDER_LINE_PROPERTIES = new Set([
  'SupplierInvoice',
  'FiscalYear',
  'SupplierInvoiceItem',
  'PurchaseOrder',
  'PurchaseOrderItem',
  'Plant',
  'ReferenceDocument',
  'ReferenceDocumentFiscalYear',
  'ReferenceDocumentItem',
  'IsSubsequentDebitCredit',
  'TaxCode',
  'TaxJurisdiction',
  'DocumentCurrency',
  'SupplierInvoiceItemAmount',
  'PurchaseOrderQuantityUnit',
  'PurchaseOrderQtyUnitSAPCode',
  'PurchaseOrderQtyUnitISOCode',
  'QuantityInPurchaseOrderUnit',
  'PurchaseOrderPriceUnit',
  'PurchaseOrderPriceUnitSAPCode',
  'PurchaseOrderPriceUnitISOCode',
  'QtyInPurchaseOrderPriceUnit',
  'SuplrInvcDeliveryCostCndnType',
  'SuplrInvcDeliveryCostCndnStep',
  'SuplrInvcDeliveryCostCndnCount',
  'SupplierInvoiceItemText',
  'FreightSupplier',
  'IsNotCashDiscountLiable',
  'PurchasingDocumentItemCategory',
  'ProductType',
  'RetentionAmountInDocCurrency',
  'RetentionPercentage',
  'RetentionDueDate',
  'SuplrInvcItmIsNotRlvtForRtntn',
  'ServiceEntrySheet',
  'ServiceEntrySheetItem',
  'TaxCountry',
  'IsFinallyInvoiced',
  'TaxDeterminationDate',
  'to_SupplierInvoiceItmAcctAssgmt',
]);

interface PaymentRunEntry {
  readonly supplierId: string;
  readonly invoiceId: string;
  readonly invoiceType: string | null;
  readonly scheduledAt: string;
  readonly paidAt: string | null;
  readonly changedAt: number;
  /** The remittance of a paid item (absent on entries recorded before it was kept). */
  readonly payment?: {
    readonly document: string;
    readonly fiscalYear: string;
    readonly method: string;
    readonly methodName: string;
    readonly amount: number | null;
    readonly currency: string | null;
  } | null;
}

/** The payment methods the simulated payment runs use (SAP's codes are the group's customizing). */
const PAYMENT_METHODS: Record<string, string> = { T: 'Transferencia bancaria', C: 'Cheque' };

type Withholding = NonNullable<Posting['withholdings']>[number];

/** The rows of the deep insert's A_SuplrInvcHeaderWhldgTax. */
function withholdingRows(payload: Record<string, unknown>): Record<string, unknown>[] {
  return ((payload.to_SuplrInvcHeaderWhldgTax as { results?: unknown[] } | undefined)?.results ?? []) as Record<
    string,
    unknown
  >[];
}

/** Which of the group's withholdings a row's type and code name; undefined when none. */
function withholdingKind(row: Record<string, unknown>): SapWithholdingKind | undefined {
  return (Object.keys(SAP_WITHHOLDING_TAX) as SapWithholdingKind[]).find(
    (each) =>
      SAP_WITHHOLDING_TAX[each].type === row.WithholdingTaxType &&
      SAP_WITHHOLDING_TAX[each].code === row.WithholdingTaxCode,
  );
}

/**
 * The withholding tax data of a posting as S/4HANA checks it against its customizing and the supplier master
 * (docs/ap-payment.md): only the group's withholding types and codes, in the document currency, on the gross
 * amount; the detracción and the retención del IGV never together; the retención (3 %, to the cent) present
 * exactly when the company is agente de retención, the supplier is not exempt and the gross amount passes
 * S/ 700; absent otherwise. Answers the lines read, or the reason for refusing them.
 */
function withholdingsOf(
  payload: Record<string, unknown>,
  acquirer: string,
  gross: number,
  tax: number,
  worlds: readonly DemoParties[],
): { lines: Withholding[] } | { problem: string } {
  const currency = String(payload.DocumentCurrency ?? '');
  const lines: Withholding[] = [];
  for (const row of withholdingRows(payload)) {
    const kind = withholdingKind(row);
    if (!kind) {
      return {
        problem: `El tipo de retención ${String(row.WithholdingTaxType)} con el indicador ${String(row.WithholdingTaxCode)} no está definido.`,
      };
    }
    if (lines.some((line) => line.kind === kind))
      return { problem: `El tipo de retención ${String(row.WithholdingTaxType)} figura dos veces.` };
    if (row.DocumentCurrency !== currency)
      return { problem: `La retención no está en la moneda del documento (${currency}).` };
    const baseAmount = Number(row.WithholdingTaxBaseAmount);
    const amount = Number(row.ManuallyEnteredWhldgTaxAmount);
    if (!Number.isFinite(baseAmount) || toCents(baseAmount) !== toCents(gross)) {
      return {
        problem: `La base de la retención (${String(row.WithholdingTaxBaseAmount)}) no es el importe bruto ${gross.toFixed(2)}.`,
      };
    }
    if (!Number.isFinite(amount) || !(amount > 0) || amount >= baseAmount) {
      return { problem: `El importe retenido ${String(row.ManuallyEnteredWhldgTaxAmount)} no es válido.` };
    }
    lines.push({ kind, baseAmount, amount });
  }
  const detraction = lines.some((line) => line.kind === 'DETRACTION');
  const retention = lines.find((line) => line.kind === 'IGV_RETENTION');
  const company = worlds.flatMap((parties) => parties.clients).find((client) => client.taxId === acquirer);
  const supplier = worlds
    .flatMap((parties) => parties.suppliers)
    .find((each) => each.taxId === String(payload.InvoicingParty ?? ''));
  const retentionDue =
    company?.igvRetentionAgent === true &&
    payload.IsInvoice !== false &&
    !supplier?.igvRetentionExemption &&
    !detraction &&
    tax > 0 &&
    toCents(gross) > IGV_RETENTION_THRESHOLD_PEN * 100;
  if (detraction && retention) return { problem: 'Una operación sujeta a detracción no lleva retención del IGV.' };
  if (retentionDue && !retention) {
    return {
      problem: `Falta la retención del IGV: el acreedor ${String(payload.InvoicingParty)} está sujeto a retención en esta sociedad.`,
    };
  }
  if (!retentionDue && retention)
    return { problem: 'La retención del IGV no corresponde a este acreedor, sociedad o importe.' };
  if (retention) {
    const expected = percentOfCents(toCents(gross), toBasisPoints(IGV_RETENTION_PERCENT));
    if (toCents(retention.amount) !== expected) {
      return { problem: `La retención del IGV debe ser ${(expected / 100).toFixed(2)} (3 % de ${gross.toFixed(2)}).` };
    }
  }
  return { lines };
}

export interface SapSimulator extends RunningService {
  /** What `POST /__control/schedules/{id}` runs: the local stage plugs its scheduled jobs in here. */
  setScheduleRunner(run: (scheduleId: string) => Promise<void>): void;
}

const odataError = (status: number, code: string, value: string) => ({
  status,
  body: { error: { code, message: { lang: 'es', value } } },
});
const odataDate = (ms: number) => `/Date(${ms})/`;
const closeEnough = (a: number, b: number) => Math.abs(a - b) <= 0.01 + 1e-9;
const docKey = (kind: string, acquirer: string, id: string) => `${kind}#${acquirer}#${id}`;

/**
 * S/4HANA as the portal sees it, on the local stage:
 * - API_SUPPLIERINVOICE_PROCESS_SRV: the CSRF handshake (token bound to a session cookie) and the
 *   A_SupplierInvoice deep insert with the three-way match (the purchase order belongs to the
 *   supplier and company, the HES/MIGO belongs to that order, the amounts add up within a cent).
 *   Repeatability-Request-ID is honoured: a repeated request answers the first document and posts
 *   nothing. Other duplicates are not refused (SAP only warns), so a double posting shows in the count.
 *   A property the entity's metadata does not declare is refused. A credit memo (SupplierInvoiceIsCreditMemo 'X')
 *   or a subsequent debit names the invoice it adjusts (InvoiceReference, InvoiceReferenceFiscalYear): that
 *   invoice exists for the same supplier and company, the lines are its purchase orders (IsSubsequentDebitCredit
 *   'X': no HES or MIGO), and a credit takes at most what is left of it (a note never credits more than its original).
 *   GET A_SupplierInvoice with `$filter` (eq … and eq …) on the header fields finds what was posted, with its
 *   credit-memo flag and invoice reference. SAP also holds the demo world's invoices from before the portal.
 * - The purchase orders, HES and MIGO it knows: the seed's (buildWorld), plus those registered with
 *   `POST /__control/documents` — tests that create documents in DynamoDB register them here too, as
 *   SAP is where they really come from. Unknown documents are refused.
 * - The withholding tax data of a posting (A_SuplrInvcHeaderWhldgTax: detracción, retención del IGV) checked
 *   against the companies that are agentes de retención and the suppliers that are exempt (withholdingsOf).
 * - Payment runs: recorded with `POST /__control/payment-run`, read through ZPORTAL_PAYMENT_RUN_SRV; a paid item
 *   carries its remittance (payment document, method, amount).
 * Control API (no auth): GET /__control/postings, POST /__control/fail, POST /__control/documents,
 * POST /__control/payment-run, POST|GET /__control/schedules/{id}.
 */
export async function startSapSimulator(
  port: number,
  host: string,
  options: {
    companyCodes?: Record<string, string>;
    /**
     * SAP keeps what it posted across restarts: each change (posting, registered documents, payment run)
     * is appended to this journal and flushed to disk before the answer leaves; a start replays it
     * (a line torn by a crash is the change that was never answered, and is ignored).
     */
    stateFile?: string;
    /** SAP's "now" (posting dates, fiscal years, payment-run change times): the stage's clock. @default real time */
    clock?: () => Date;
    /** The worlds whose companies, suppliers, orders, HES, MIGO and postings SAP holds. @default the demo world */
    worlds?: readonly DemoParties[];
  } = {},
): Promise<SapSimulator> {
  const now = options.clock ?? (() => new Date());
  const worlds = options.worlds ?? [DEMO_PARTIES];
  const companies = new Map(
    Object.entries(options.companyCodes ?? localCompanyCodes(worlds.flatMap((parties) => parties.clients))).map(
      ([ruc, code]) => [code, ruc],
    ),
  );
  const expectedAuth = `Basic ${Buffer.from(`${LOCAL_SAP_CREDENTIALS.username}:${LOCAL_SAP_CREDENTIALS.password}`).toString('base64')}`;
  const sessions = new Map<string, string>(); // CSRF token → session id
  const orders = new Map<string, PurchaseOrder>();
  const documents = new Map<string, ConformityDocument>();
  const postings: Posting[] = [];
  const repeatable = new Map<string, Posting>();
  const paymentRuns: PaymentRunEntry[] = [];
  /**
   * Posting requests to fail (POST /__control/fail): of one supplier (its RUC), so that test files sharing the stage
   * fail only their own, or of any supplier (the key '').
   */
  const failures = new Map<string, { left: number; status: number }>();
  const failureFor = (supplierId: string) => {
    for (const key of [supplierId, '']) {
      const failure = failures.get(key);
      if (failure && failure.left > 0) {
        failure.left -= 1;
        return failure.status;
      }
    }
    return null;
  };
  let documentNumber = 5105600000;
  /** Payment documents of the payment runs (SAP's FI document numbers of class ZP). */
  let paymentNumber = 2000000000;
  let lastChange = 0;
  let scheduleRunner: ((id: string) => Promise<void>) | null = null;
  const scheduleRuns = new Map<string, { started: number; completed: number; lastError: string | null }>();

  function register(body: { purchaseOrders?: PurchaseOrder[]; conformityDocuments?: ConformityDocument[] }) {
    for (const order of body.purchaseOrders ?? []) orders.set(`${order.acquirerTaxId}#${order.id}`, order);
    for (const doc of body.conformityDocuments ?? [])
      documents.set(docKey(doc.kind, doc.acquirerTaxId, doc.documentId), doc);
  }
  const seeded = worlds.map((parties) => buildWorld(undefined, parties));
  for (const world of seeded) register(world);
  const codes = new Map([...companies].map(([code, ruc]) => [ruc, code]));
  for (const legacy of seeded.flatMap((world) => world.legacyPostings)) {
    postings.push({
      document: legacy.document,
      fiscalYear: legacy.fiscalYear,
      companyCode: codes.get(legacy.acquirerTaxId) ?? '',
      supplierId: legacy.supplierId,
      invoiceId: legacy.invoiceId,
      requestId: null,
      postedAt: `${legacy.fiscalYear}-01-01T00:00:00.000Z`,
      creditMemo: false,
      adjusts: null,
      grossAmount: legacy.grossAmount,
      currency: legacy.currency,
      purchaseOrders: legacy.purchaseOrders,
      legacy: true,
    });
  }

  type Change =
    | { kind: 'posting'; posting: Posting }
    | { kind: 'documents'; body: Parameters<typeof register>[0] }
    | { kind: 'payment-run'; entry: PaymentRunEntry };
  function apply(change: Change) {
    if (change.kind === 'posting') {
      postings.push(change.posting);
      if (change.posting.requestId) repeatable.set(change.posting.requestId, change.posting);
      documentNumber = Math.max(documentNumber, Number(change.posting.document));
    } else if (change.kind === 'documents') register(change.body);
    else {
      paymentRuns.push(change.entry);
      lastChange = Math.max(lastChange, change.entry.changedAt);
      const paid = Number(change.entry.payment?.document);
      if (Number.isInteger(paid) && paid > paymentNumber && paid < 3000000000) paymentNumber = paid;
    }
  }
  const stateFile = options.stateFile;
  if (stateFile && existsSync(stateFile)) {
    const text = readFileSync(stateFile, 'utf8');
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        apply(JSON.parse(line) as Change);
      } catch {
        // The torn last line of a crash: never answered, never happened.
      }
    }
    // Cut that torn line off, or the next change would be appended to it and lost at the next start.
    const whole = Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1));
    if (whole < Buffer.byteLength(text)) truncateSync(stateFile, whole);
  }
  const journal = stateFile ? openSync(stateFile, 'a') : null;
  /** Applies a change and, with a state file, makes it durable before the caller answers. */
  function record(change: Change) {
    apply(change);
    if (journal === null) return;
    writeSync(journal, `${JSON.stringify(change)}\n`);
    fsyncSync(journal);
  }

  const linesOf = (payload: Record<string, unknown>) =>
    ((payload.to_SuplrInvcItemPurOrdRef as { results?: unknown[] } | undefined)?.results ?? []) as Record<
      string,
      unknown
    >[];

  /** A property the entity does not have, as S/4HANA names it in its refusal; null when all are known. */
  function unknownProperty(payload: Record<string, unknown>): string | null {
    const header = Object.keys(payload).find((name) => !HEADER_PROPERTIES.has(name));
    if (header) return `La propiedad '${header}' no es válida para A_SupplierInvoice.`;
    for (const line of linesOf(payload)) {
      const item = Object.keys(line).find((name) => !PURCHASE_ORDER_LINE_PROPERTIES.has(name));
      if (item) return `La propiedad '${item}' no es válida para A_SuplrInvcItemPurOrdRef.`;
    }
    return null;
  }

  /**
   * A credit memo or subsequent debit: the invoice it names (InvoiceReference) exists at the company for
   * the same supplier and is an invoice; its lines are that invoice's purchase orders; a credit takes at most what is
   * left of the invoice (its gross − credits + subsequent debits already referencing it). Null when it holds.
   */
  function adjustmentMismatch(payload: Record<string, unknown>, acquirer: string): string | null {
    const creditMemo = payload.SupplierInvoiceIsCreditMemo === 'X';
    const reference = payload.InvoiceReference ? String(payload.InvoiceReference) : null;
    if (!reference) return creditMemo ? 'Un abono debe indicar la factura que abona (InvoiceReference).' : null;
    const year = String(payload.InvoiceReferenceFiscalYear ?? '');
    const code = String(payload.CompanyCode);
    const supplier = String(payload.InvoicingParty ?? '');
    const original = postings.find((p) => p.document === reference && p.fiscalYear === year && p.companyCode === code);
    if (!original) return `La factura de referencia ${reference}/${year} no existe en la sociedad ${code}.`;
    if (original.supplierId !== supplier || isCreditMemo(original) || original.adjusts)
      return `El documento ${reference}/${year} no es una factura del acreedor ${supplier}.`;
    if (original.currency && original.currency !== String(payload.DocumentCurrency ?? ''))
      return `La moneda no es la de la factura de referencia ${reference}.`;
    for (const line of linesOf(payload)) {
      const order = String(line.PurchaseOrder);
      if (original.purchaseOrders && !original.purchaseOrders.includes(order))
        return `El pedido ${order} no corresponde a la factura de referencia ${reference}.`;
      if (line.IsSubsequentDebitCredit !== 'X')
        return `La posición del pedido ${order} debe ser un cargo o abono posterior.`;
      if (!orders.has(`${acquirer}#${order}`)) return `El pedido ${order} no existe para el acreedor ${supplier}.`;
    }
    if (creditMemo && original.grossAmount !== undefined) {
      const adjusting = postings.filter(
        (p) => p.adjusts?.document === reference && p.adjusts.fiscalYear === year && p.companyCode === code,
      );
      const cents = (amount: number | undefined) => Math.round((amount ?? 0) * 100);
      const left =
        cents(original.grossAmount) -
        adjusting.filter(isCreditMemo).reduce((sum, p) => sum + cents(p.grossAmount), 0) +
        adjusting.filter((p) => !isCreditMemo(p)).reduce((sum, p) => sum + cents(p.grossAmount), 0);
      const gross = cents(Number(payload.InvoiceGrossAmount));
      if (gross > left)
        return `El abono ${(gross / 100).toFixed(2)} supera el saldo ${(left / 100).toFixed(2)} de la factura ${reference}.`;
    }
    return null;
  }

  /** The three-way match of one posting; null when it holds. */
  function mismatch(payload: Record<string, unknown>): string | null {
    const acquirer = companies.get(String(payload.CompanyCode));
    if (!acquirer) return `La sociedad ${String(payload.CompanyCode)} no existe.`;
    const supplier = String(payload.InvoicingParty ?? '');
    const currency = String(payload.DocumentCurrency ?? '');
    const items = linesOf(payload);
    const taxes = ((payload.to_SupplierInvoiceTax as { results?: unknown[] } | undefined)?.results ?? []) as Record<
      string,
      unknown
    >[];
    const adjustment = adjustmentMismatch(payload, acquirer);
    if (adjustment) return adjustment;
    let net = 0;
    for (const item of items) {
      const order = orders.get(`${acquirer}#${String(item.PurchaseOrder)}`);
      if (!order || order.issuerTaxId !== supplier)
        return `El pedido ${String(item.PurchaseOrder)} no existe para el acreedor ${supplier}.`;
      if (item.IsSubsequentDebitCredit === 'X') {
        // A price adjustment of the order: no HES or MIGO receives it.
        if (order.currency !== currency) return `La moneda del pedido ${order.id} no es ${currency}.`;
        net += Number(item.SupplierInvoiceItemAmount);
        continue;
      }
      const hes = item.ServiceEntrySheet ? String(item.ServiceEntrySheet) : null;
      const migo = item.ReferenceDocument ? String(item.ReferenceDocument) : null;
      const doc = hes
        ? documents.get(docKey('SERVICE_SHEET', acquirer, hes))
        : migo
          ? documents.get(docKey('MATERIAL_DOCUMENT', acquirer, migo))
          : undefined;
      if (!doc || doc.purchaseOrder !== order.id)
        return `No hay HES ni MIGO ${hes ?? migo ?? ''} del pedido ${order.id}.`;
      if (migo && String(item.ReferenceDocumentFiscalYear) !== doc.fiscalYear)
        return `El documento de material ${migo} no es del ejercicio ${String(item.ReferenceDocumentFiscalYear)}.`;
      const amount = Number(item.SupplierInvoiceItemAmount);
      if (!closeEnough(amount, doc.amount))
        return `El importe ${amount.toFixed(2)} no coincide con el de ${doc.documentId} (${doc.amount.toFixed(2)}).`;
      if (doc.currency !== currency) return `La moneda de ${doc.documentId} no es ${currency}.`;
      net += amount;
    }
    const tax = taxes.reduce((sum, line) => sum + Number(line.TaxAmount), 0);
    const gross = Number(payload.InvoiceGrossAmount);
    if (!Number.isFinite(gross)) return 'Falta el importe bruto de la factura.';
    if (items.length > 0 && !closeEnough(gross, net + tax))
      return `El importe bruto ${gross.toFixed(2)} no cuadra con las posiciones (${net.toFixed(2)}) más impuestos (${tax.toFixed(2)}).`;
    const withholdings = withholdingsOf(payload, acquirer, gross, tax, worlds);
    if ('problem' in withholdings) return withholdings.problem;
    return null;
  }

  const answerOf = (payload: Record<string, unknown>, posting: Posting) => ({
    status: 201,
    body: { d: { ...payload, SupplierInvoice: posting.document, FiscalYear: posting.fiscalYear } },
  });

  function paymentRunRow(entry: PaymentRunEntry) {
    return {
      InvoicingParty: entry.supplierId,
      SupplierInvoiceIDByInvcgParty: entry.invoiceId,
      PortalInvoiceType: entry.invoiceType,
      ScheduledPaymentDate: odataDate(Date.parse(`${entry.scheduledAt}T00:00:00Z`)),
      PaymentDate: entry.paidAt ? odataDate(Date.parse(`${entry.paidAt}T00:00:00Z`)) : null,
      LastChangeDateTime: odataDate(entry.changedAt),
      PaymentDocument: entry.payment?.document ?? null,
      PaymentDocumentFiscalYear: entry.payment?.fiscalYear ?? null,
      PaymentMethod: entry.payment?.method ?? null,
      PaymentMethodName: entry.payment?.methodName ?? null,
      PaidAmount: entry.payment?.amount != null ? entry.payment.amount.toFixed(2) : null,
      PaymentCurrency: entry.payment?.currency ?? null,
    };
  }

  const authorized = (headers: Record<string, string | string[] | undefined>) => headers.authorization === expectedAuth;
  const unauthorized = odataError(401, '/IWFND/CM_CONSUMER/401', 'Usuario o contraseña incorrectos.');
  const readJson = (body: string): Record<string, unknown> | null => {
    try {
      const parsed: unknown = JSON.parse(body || '{}');
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  };

  const routes: SimRoute[] = [
    {
      method: 'GET',
      pattern: new RegExp(`^${SERVICE}/?$`),
      handle: ({ headers }) => {
        if (!authorized(headers)) return unauthorized;
        const body = { d: { EntitySets: ['A_SupplierInvoice', 'A_SuppInvcItemPurOrdRef'] } };
        if (headers['x-csrf-token']?.toString().toLowerCase() !== 'fetch') return { status: 200, body };
        const token = randomUUID();
        const sessionId = randomUUID();
        sessions.set(token, sessionId);
        return {
          status: 200,
          body,
          headers: { 'x-csrf-token': token, 'set-cookie': `${SESSION_COOKIE}=${sessionId}; path=/; HttpOnly` },
        };
      },
    },
    {
      method: 'POST',
      pattern: new RegExp(`^${SERVICE}/A_SupplierInvoice$`),
      handle: ({ headers, body }) => {
        if (!authorized(headers)) return unauthorized;
        const token = headers['x-csrf-token']?.toString() ?? '';
        const cookie = headers.cookie?.toString() ?? '';
        const sessionId = sessions.get(token);
        if (!sessionId || !cookie.includes(`${SESSION_COOKIE}=${sessionId}`)) {
          return {
            ...odataError(403, '/IWFND/CM_BEC/001', 'CSRF token validation failed'),
            headers: { 'x-csrf-token': 'Required' },
          };
        }
        const payload = readJson(body);
        const failure = failureFor(String(payload?.InvoicingParty ?? ''));
        if (failure !== null) return odataError(failure, '/IWBEP/CM_MGW_RT/000', 'Fallo simulado del sistema SAP.');
        if (!payload) return odataError(400, '/IWBEP/CM_MGW_RT/021', 'Malformed JSON');
        const invalid = unknownProperty(payload);
        if (invalid) return odataError(400, '/IWBEP/CM_MGW_RT/004', invalid);
        const requestId = headers['repeatability-request-id']?.toString() ?? null;
        const earlier = requestId ? repeatable.get(requestId) : undefined;
        if (earlier) return answerOf(payload, earlier);
        const problem = mismatch(payload);
        if (problem) return odataError(400, 'M8/000', problem);
        const posting: Posting = {
          document: String(documentNumber + 1),
          fiscalYear: String(now().getUTCFullYear()),
          companyCode: String(payload.CompanyCode),
          supplierId: String(payload.InvoicingParty),
          invoiceId: String(payload.SupplierInvoiceIDByInvcgParty),
          requestId,
          postedAt: now().toISOString(),
          creditMemo: payload.SupplierInvoiceIsCreditMemo === 'X',
          adjusts: payload.InvoiceReference
            ? { document: String(payload.InvoiceReference), fiscalYear: String(payload.InvoiceReferenceFiscalYear) }
            : null,
          grossAmount: Number(payload.InvoiceGrossAmount),
          currency: String(payload.DocumentCurrency ?? ''),
          purchaseOrders: [...new Set(linesOf(payload).map((line) => String(line.PurchaseOrder)))],
          isInvoice: payload.IsInvoice !== false,
          withholdings: withholdingRows(payload).map((row) => ({
            kind: withholdingKind(row)!,
            baseAmount: Number(row.WithholdingTaxBaseAmount),
            amount: Number(row.ManuallyEnteredWhldgTaxAmount),
          })),
        };
        record({ kind: 'posting', posting });
        return answerOf(payload, posting);
      },
    },
    {
      // The read S/4HANA allows on the entity set: $filter with `eq` on header fields joined by `and`.
      method: 'GET',
      pattern: new RegExp(`^${SERVICE}/A_SupplierInvoice$`),
      handle: ({ headers, url }) => {
        if (!authorized(headers)) return unauthorized;
        const filter = url.searchParams.get('$filter') ?? '';
        const conditions = new Map<string, string>();
        for (const part of filter.split(/\s+and\s+/)) {
          const match = /^\s*(\w+) eq '((?:[^']|'')*)'\s*$/.exec(part);
          if (!match) return odataError(400, '/IWBEP/CM_MGW_RT/022', `Filtro no válido: ${part}`);
          conditions.set(match[1]!, match[2]!.replace(/''/g, "'"));
        }
        const fields: Record<string, (p: Posting) => string> = {
          CompanyCode: (p) => p.companyCode,
          InvoicingParty: (p) => p.supplierId,
          SupplierInvoiceIDByInvcgParty: (p) => p.invoiceId,
          SupplierInvoice: (p) => p.document,
          FiscalYear: (p) => p.fiscalYear,
        };
        for (const name of conditions.keys())
          if (!fields[name]) return odataError(400, '/IWBEP/CM_MGW_RT/022', `No se puede filtrar por ${name}.`);
        const results = postings
          .filter((p) => [...conditions].every(([name, value]) => fields[name]!(p) === value))
          .map((p) => ({
            SupplierInvoice: p.document,
            FiscalYear: p.fiscalYear,
            CompanyCode: p.companyCode,
            InvoicingParty: p.supplierId,
            SupplierInvoiceIDByInvcgParty: p.invoiceId,
            SupplierInvoiceIsCreditMemo: isCreditMemo(p) ? 'X' : '',
            InvoiceReference: p.adjusts?.document ?? '',
            InvoiceReferenceFiscalYear: p.adjusts?.fiscalYear ?? '',
            ReverseDocument: '',
          }));
        return { status: 200, body: { d: { results } } };
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`^${PAYMENT_SERVICE}/PaymentRunItems$`),
      handle: ({ headers, url }) => {
        if (!authorized(headers)) return unauthorized;
        const filter = url.searchParams.get('$filter') ?? '';
        const since = /LastChangeDateTime ge datetimeoffset'([^']+)'/.exec(filter)?.[1];
        const sinceMs = since ? Date.parse(since) : -Infinity;
        if (Number.isNaN(sinceMs)) return odataError(400, '/IWBEP/CM_MGW_RT/022', 'Filtro no válido.');
        const top = Math.min(Number(url.searchParams.get('$top') ?? 500) || 500, 1000);
        const skip = Number(url.searchParams.get('$skip') ?? 0) || 0;
        const matching = paymentRuns.filter((entry) => entry.changedAt >= sinceMs);
        const page = matching.slice(skip, skip + top);
        let next: string | null = null;
        if (skip + top < matching.length) {
          const query = new URLSearchParams(url.searchParams);
          query.set('$skip', String(skip + top));
          next = `${PAYMENT_SERVICE}/PaymentRunItems?${query.toString()}`;
        }
        return { status: 200, body: { d: { results: page.map(paymentRunRow), __next: next } } };
      },
    },
    {
      method: 'GET',
      pattern: /^\/__control\/postings$/,
      handle: ({ url }) => {
        const supplierId = url.searchParams.get('supplierId');
        const portal = postings.filter((p) => !p.legacy);
        const selected = supplierId ? portal.filter((p) => p.supplierId === supplierId) : portal;
        const byInvoice: Record<string, number> = {};
        for (const p of selected) {
          const key = `${p.supplierId}/${p.invoiceId}`;
          byInvoice[key] = (byInvoice[key] ?? 0) + 1;
        }
        return { status: 200, body: { total: selected.length, byInvoice, postings: selected } };
      },
    },
    {
      method: 'POST',
      pattern: /^\/__control\/fail$/,
      handle: ({ body }) => {
        const payload = readJson(body);
        const count = Number(payload?.count ?? 1);
        if (!Number.isInteger(count) || count < 0) return { status: 400, body: { message: 'count: entero ≥ 0' } };
        const supplierId = payload?.supplierId == null ? '' : String(payload.supplierId);
        const failure = { left: count, status: Number(payload?.status ?? 503) };
        failures.set(supplierId, failure);
        return { status: 200, body: { failuresLeft: failure.left, status: failure.status, supplierId } };
      },
    },
    {
      method: 'POST',
      pattern: /^\/__control\/documents$/,
      handle: ({ body }) => {
        const payload = readJson(body);
        if (!payload) return { status: 400, body: { message: 'JSON no válido' } };
        record({ kind: 'documents', body: payload as Parameters<typeof register>[0] });
        return { status: 200, body: { purchaseOrders: orders.size, conformityDocuments: documents.size } };
      },
    },
    {
      method: 'POST',
      pattern: /^\/__control\/payment-run$/,
      handle: ({ body }) => {
        const payload = readJson(body);
        const invoices = payload?.invoices;
        if (!Array.isArray(invoices)) return { status: 400, body: { message: 'invoices: lista requerida' } };
        const isDate = (value: unknown) => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value);
        for (const entry of invoices as Record<string, unknown>[]) {
          if (typeof entry.supplierId !== 'string' || typeof entry.invoiceId !== 'string' || !isDate(entry.scheduledAt))
            return { status: 400, body: { message: 'cada pago requiere supplierId, invoiceId y scheduledAt' } };
          if (entry.paidAt != null && !isDate(entry.paidAt))
            return { status: 400, body: { message: 'paidAt: fecha yyyy-mm-dd' } };
          if (entry.paymentMethod != null && !(String(entry.paymentMethod) in PAYMENT_METHODS))
            return {
              status: 400,
              body: { message: `paymentMethod: uno de ${Object.keys(PAYMENT_METHODS).join(', ')}` },
            };
          if (entry.paidAmount != null && !(typeof entry.paidAmount === 'number' && entry.paidAmount > 0))
            return { status: 400, body: { message: 'paidAmount: importe positivo' } };
        }
        for (const entry of invoices as Record<string, unknown>[]) {
          // Strictly increasing change times, so a cursor never skips an entry recorded in the same ms.
          record({
            kind: 'payment-run',
            entry: {
              supplierId: entry.supplierId as string,
              invoiceId: entry.invoiceId as string,
              invoiceType: typeof entry.invoiceType === 'string' ? entry.invoiceType : null,
              scheduledAt: (entry.scheduledAt as string).slice(0, 10),
              paidAt: typeof entry.paidAt === 'string' ? entry.paidAt.slice(0, 10) : null,
              changedAt: Math.max(now().getTime(), lastChange + 1),
              // A paid item has its payment document: the one given, or the next of the run's numbering.
              payment:
                typeof entry.paidAt === 'string'
                  ? {
                      document:
                        typeof entry.paymentDocument === 'string' ? entry.paymentDocument : String(++paymentNumber),
                      fiscalYear: entry.paidAt.slice(0, 4),
                      method: typeof entry.paymentMethod === 'string' ? entry.paymentMethod : 'T',
                      methodName: PAYMENT_METHODS[typeof entry.paymentMethod === 'string' ? entry.paymentMethod : 'T']!,
                      amount: typeof entry.paidAmount === 'number' ? entry.paidAmount : null,
                      currency: typeof entry.currency === 'string' ? entry.currency : null,
                    }
                  : null,
            },
          });
        }
        return { status: 201, body: { recorded: invoices.length } };
      },
    },
    {
      method: 'POST',
      pattern: /^\/__control\/schedules\/([A-Za-z0-9-]+)$/,
      handle: ({ params }) => {
        const id = params[0]!;
        if (!scheduleRunner) return { status: 503, body: { message: 'sin tareas programadas' } };
        const state = scheduleRuns.get(id) ?? { started: 0, completed: 0, lastError: null };
        scheduleRuns.set(id, state);
        state.started += 1;
        const run = state.started;
        scheduleRunner(id).then(
          () => {
            state.completed = Math.max(state.completed, run);
            state.lastError = null;
          },
          (error: unknown) => {
            state.completed = Math.max(state.completed, run);
            state.lastError = error instanceof Error ? error.message : String(error);
          },
        );
        return { status: 202, body: { id, run } };
      },
    },
    {
      method: 'GET',
      pattern: /^\/__control\/schedules\/([A-Za-z0-9-]+)$/,
      handle: ({ params }) => ({
        status: 200,
        body: { id: params[0], ...(scheduleRuns.get(params[0]!) ?? { started: 0, completed: 0, lastError: null }) },
      }),
    },
  ];
  const service = await startSimulator('sap', port, host, routes);
  return {
    ...service,
    async stop() {
      await service.stop();
      if (journal !== null) closeSync(journal);
    },
    setScheduleRunner(run) {
      scheduleRunner = run;
    },
  };
}
