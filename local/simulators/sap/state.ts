import { closeSync, existsSync, fsyncSync, openSync, readFileSync, truncateSync, writeSync } from 'node:fs';
import type { Client, SapWithholdingKind } from '@portal/shared';
import {
  CLIENTS,
  DEMO_PARTIES,
  buildWorld,
  type DemoParties,
  type SeedConformityDocument,
  type SeedPurchaseOrder,
} from '../../seed/seed-data.js';

/**
 * What the SAP simulator holds: the companies, the orders, HES and MIGO it knows, what it posted, the payment runs,
 * the failures asked for, and the journal that keeps them across restarts.
 */

/** The technical user the local stage's functions log on with (basic authentication). */
export const LOCAL_SAP_CREDENTIALS = { type: 'basic', username: 'PORTAL_RFC', password: 'portal-local' } as const;

/**
 * Company code of each company of the group on the local stage: 1000, 2000, 3000 in CLIENTS order; a test tenant's
 * companies (seed-data.ts tenantParties) take the next codes, 4000 on.
 */
export function localCompanyCodes(companies: readonly Client[] = CLIENTS): Record<string, string> {
  return Object.fromEntries(companies.map((client, i) => [client.taxId, String((i + 1) * 1000)]));
}

export type PurchaseOrder = Pick<SeedPurchaseOrder, 'id' | 'issuerTaxId' | 'acquirerTaxId' | 'currency'>;
export type ConformityDocument = Pick<
  SeedConformityDocument,
  'kind' | 'documentId' | 'purchaseOrder' | 'fiscalYear' | 'issuerTaxId' | 'acquirerTaxId' | 'amount' | 'currency'
>;

export interface Posting {
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

export const isCreditMemo = (posting: Posting) => posting.creditMemo ?? posting.isInvoice === false;

export interface PaymentRunEntry {
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

export interface SapOptions {
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
}

export interface RegisteredDocuments {
  purchaseOrders?: PurchaseOrder[];
  conformityDocuments?: ConformityDocument[];
}

export type Change =
  | { kind: 'posting'; posting: Posting }
  | { kind: 'documents'; body: RegisteredDocuments }
  | { kind: 'payment-run'; entry: PaymentRunEntry };

export interface ScheduleRun {
  started: number;
  completed: number;
  lastError: string | null;
}

export interface SapState {
  readonly now: () => Date;
  readonly worlds: readonly DemoParties[];
  /** Company code → the company's RUC. */
  readonly companies: Map<string, string>;
  readonly expectedAuth: string;
  /** CSRF token → session id. */
  readonly sessions: Map<string, string>;
  readonly orders: Map<string, PurchaseOrder>;
  readonly documents: Map<string, ConformityDocument>;
  readonly postings: Posting[];
  readonly repeatable: Map<string, Posting>;
  readonly paymentRuns: PaymentRunEntry[];
  /**
   * Posting requests to fail (POST /__control/fail): of one supplier (its RUC), so that test files sharing the stage
   * fail only their own, or of any supplier (the key '').
   */
  readonly failures: Map<string, { left: number; status: number }>;
  documentNumber: number;
  /** Payment documents of the payment runs (SAP's FI document numbers of class ZP). */
  paymentNumber: number;
  lastChange: number;
  scheduleRunner: ((id: string) => Promise<void>) | null;
  readonly scheduleRuns: Map<string, ScheduleRun>;
  journal: number | null;
}

export const docKey = (kind: string, acquirer: string, id: string) => `${kind}#${acquirer}#${id}`;

/** SAP as it starts: the worlds' documents and legacy postings, then the journal's changes replayed. */
export function createSapState(options: SapOptions): SapState {
  const worlds = options.worlds ?? [DEMO_PARTIES];
  const state: SapState = {
    now: options.clock ?? (() => new Date()),
    worlds,
    companies: new Map(
      Object.entries(options.companyCodes ?? localCompanyCodes(worlds.flatMap((parties) => parties.clients))).map(
        ([ruc, code]) => [code, ruc],
      ),
    ),
    expectedAuth: `Basic ${Buffer.from(`${LOCAL_SAP_CREDENTIALS.username}:${LOCAL_SAP_CREDENTIALS.password}`).toString('base64')}`,
    sessions: new Map(),
    orders: new Map(),
    documents: new Map(),
    postings: [],
    repeatable: new Map(),
    paymentRuns: [],
    failures: new Map(),
    documentNumber: 5105600000,
    paymentNumber: 2000000000,
    lastChange: 0,
    scheduleRunner: null,
    scheduleRuns: new Map(),
    journal: null,
  };
  seedWorlds(state);
  const stateFile = options.stateFile;
  if (stateFile && existsSync(stateFile)) replayJournal(state, stateFile);
  state.journal = stateFile ? openSync(stateFile, 'a') : null;
  return state;
}

function seedWorlds(state: SapState): void {
  const seeded = state.worlds.map((parties) => buildWorld(undefined, parties));
  for (const world of seeded) register(state, world);
  const codes = new Map([...state.companies].map(([code, ruc]) => [ruc, code]));
  for (const legacy of seeded.flatMap((world) => world.legacyPostings)) {
    state.postings.push({
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
}

function replayJournal(state: SapState, stateFile: string): void {
  const text = readFileSync(stateFile, 'utf8');
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      apply(state, JSON.parse(line) as Change);
    } catch {
      // The torn last line of a crash: never answered, never happened.
    }
  }
  // Cut that torn line off, or the next change would be appended to it and lost at the next start.
  const whole = Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1));
  if (whole < Buffer.byteLength(text)) truncateSync(stateFile, whole);
}

function register(state: SapState, body: RegisteredDocuments): void {
  for (const order of body.purchaseOrders ?? []) state.orders.set(`${order.acquirerTaxId}#${order.id}`, order);
  for (const doc of body.conformityDocuments ?? [])
    state.documents.set(docKey(doc.kind, doc.acquirerTaxId, doc.documentId), doc);
}

function apply(state: SapState, change: Change): void {
  if (change.kind === 'posting') {
    state.postings.push(change.posting);
    if (change.posting.requestId) state.repeatable.set(change.posting.requestId, change.posting);
    state.documentNumber = Math.max(state.documentNumber, Number(change.posting.document));
  } else if (change.kind === 'documents') register(state, change.body);
  else {
    state.paymentRuns.push(change.entry);
    state.lastChange = Math.max(state.lastChange, change.entry.changedAt);
    const paid = Number(change.entry.payment?.document);
    if (Number.isInteger(paid) && paid > state.paymentNumber && paid < 3000000000) state.paymentNumber = paid;
  }
}

/** Applies a change and, with a state file, makes it durable before the caller answers. */
export function record(state: SapState, change: Change): void {
  apply(state, change);
  if (state.journal === null) return;
  writeSync(state.journal, `${JSON.stringify(change)}\n`);
  fsyncSync(state.journal);
}

export function closeJournal(state: SapState): void {
  if (state.journal !== null) closeSync(state.journal);
}

/** The status a posting of this supplier is to fail with (POST /__control/fail), counting it; null for none. */
export function failureFor(state: SapState, supplierId: string): number | null {
  for (const key of [supplierId, '']) {
    const failure = state.failures.get(key);
    if (failure && failure.left > 0) {
      failure.left -= 1;
      return failure.status;
    }
  }
  return null;
}
