import { createHash } from 'node:crypto';
import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  BadRequestError,
  InvoiceSummary,
  TABLE,
  keys,
  type AcquirerConformityState,
  type InvoiceIndexSource,
  type InvoiceStatus,
  type InvoiceType,
} from '@portal/shared';
import { decodeMergedCursor, encodeMergedCursor, type PartitionPosition } from './cursor.js';
import { readInvoices } from './invoice-reads.js';
import { prefixRange } from './key-range.js';
import type { Page, PageRequest } from './page.js';

/**
 * The invoice query engine of GET /invoices (spec §3 "Invoice filter").
 *
 * 1. `planInvoiceQuery` (pure) turns a tenant scope and a filter into the lists to read (the partitions of their
 *    list entries, ADR 0042) and the filters left for the invoices read. The most selective filter a list serves
 *    drives.
 * 2. `runInvoiceQuery` reads every list after its cursor position within a fixed budget, reads the entries'
 *    invoices (BatchGetItem), keeps those that match, and merges the lists newest first (`mergeNewestFirst`, pure).
 *
 * Page cost: at most QUERY_BUDGET.queriesPerPartition Query calls per list, each evaluating at most
 * QUERY_BUDGET.itemsPerQuery entries, and one BatchGetItem of their invoices each, whatever the table holds. A filtered page that runs out of budget
 * before `limit` matches comes back shorter (even empty) with a nextCursor: pagination is open-ended,
 * and an empty page with a cursor means "keep going", not "no more".
 */

/** Whose invoices a caller may list, resolved by the use case before any read. */
export type InvoiceScope =
  /** A supplier: only what it issued, at every client or at one. */
  | { readonly kind: 'SUPPLIER'; readonly supplierId: string; readonly client?: string | undefined }
  /** A manager's or admin's company: every invoice it received. */
  | { readonly kind: 'COMPANY'; readonly client: string };

/** The invoice filter of spec §3 beyond client/acquirer, which the scope holds. */
export interface InvoiceFilter {
  readonly search?: string | undefined;
  /** Supplier RUC; meaningful in a company scope only (a supplier's scope is its own RUC). */
  readonly issuer?: string | undefined;
  readonly responsible?: string | undefined;
  readonly office?: string | undefined;
  readonly statuses?: readonly InvoiceStatus[] | undefined;
  readonly types?: readonly InvoiceType[] | undefined;
  /** "Vence entre": the expected payment date from, to (ISO dates, both included; either may be open). */
  readonly dueFrom?: string | undefined;
  readonly dueTo?: string | undefined;
  /** The state of the Ley 29623 conformity clock (served by the clock records: invoice-conformity-query.ts). */
  readonly acquirerConformity?: AcquirerConformityState | undefined;
  /** "Observadas": only invoices staff marked observed; no index holds them, a filter keeps them. */
  readonly observed?: boolean | undefined;
}

/**
 * One list (keys.invoiceLists), read newest first within `sortKeyPrefix`; or, with `range`, the sort keys from
 * `range.from` to `range.to` read forwards (the due-date listing: soonest first).
 */
export interface PartitionQuery {
  readonly partition: string;
  readonly sortKeyPrefix: string;
  readonly range?: { readonly from: string; readonly to: string };
}

/** An attribute (a path, e.g. responsible.id) that must equal one of the values, or (`present`) exist. */
export type AttributeFilter =
  | { readonly path: readonly string[]; readonly anyOf: readonly string[] }
  | { readonly path: readonly string[]; readonly present: true };

export interface InvoiceQueryPlan {
  /** Several partitions only on indexes sorted by the invoice order, so that they merge newest first. */
  readonly partitions: readonly PartitionQuery[];
  readonly filters: readonly AttributeFilter[];
  /** Identifies the listing (filter and tenant) for the cursors it hands out. */
  readonly fingerprint: string;
}

/** What bounds one request: Query calls per partition and items each call evaluates. */
export interface QueryBudget {
  readonly itemsPerQuery: number;
  readonly queriesPerPartition: number;
}

export const QUERY_BUDGET: QueryBudget = { itemsPerQuery: 100, queriesPerPartition: 3 };

type Term = 'client' | 'issuer' | 'responsible' | 'office' | 'status' | 'type' | 'due';
const TERMS: readonly Term[] = ['client', 'issuer', 'responsible', 'office', 'status', 'type'];

const distinctSorted = <T extends string>(values: readonly T[] | undefined): T[] => [...new Set(values ?? [])].sort();

function byOrder(partition: string): PartitionQuery {
  return { partition, sortKeyPrefix: keys.invoiceOrderPrefix };
}

/** The latest date a due range reaches when it names no end. */
const OPEN_END = '9999-12-31';

/**
 * "Vence entre" drives whenever it is asked for: the company's (or the supplier's) due-date index read as one
 * key range, soonest first, never a filter over a whole partition; every other term filters that range.
 */
function byDue(partition: string, filter: InvoiceFilter): PartitionQuery {
  return {
    partition,
    sortKeyPrefix: keys.invoiceDuePrefix,
    range: keys.invoiceDueRange(filter.dueFrom ?? '', filter.dueTo ?? OPEN_END),
  };
}

/**
 * The lists that drive a listing, within the tenant scope first. A supplier reads only lists that hold nothing
 * but its own invoices (its own, by status, or at one client). A search is not
 * planned here: it reads the search items (invoice-search.ts).
 */
function drive(
  scope: InvoiceScope,
  filter: InvoiceFilter,
  statuses: readonly InvoiceStatus[],
  types: readonly InvoiceType[],
): { partitions: PartitionQuery[]; drivenBy: Term | null } {
  const dueRange = filter.dueFrom !== undefined || filter.dueTo !== undefined;
  if (scope.kind === 'SUPPLIER') {
    const supplierId = scope.supplierId;
    if (dueRange) {
      return { partitions: [byDue(keys.supplierInvoices(supplierId), filter)], drivenBy: 'due' };
    }
    if (scope.client) {
      const partition = keys.clientSupplierInvoices(scope.client, supplierId);
      return { partitions: [byOrder(partition)], drivenBy: 'client' };
    }
    if (statuses.length > 0) {
      const partitions = statuses.map((status) => byOrder(keys.supplierStatusInvoices(supplierId, status)));
      return { partitions, drivenBy: 'status' };
    }
    return { partitions: [byOrder(keys.supplierInvoices(supplierId))], drivenBy: null };
  }

  const client = scope.client;
  if (dueRange) {
    return { partitions: [byDue(keys.clientInvoices(client), filter)], drivenBy: 'due' };
  }
  if (filter.issuer) {
    const partition = keys.clientSupplierInvoices(client, filter.issuer);
    return { partitions: [byOrder(partition)], drivenBy: 'issuer' };
  }
  if (filter.responsible) {
    const partition = keys.clientResponsibleInvoices(client, filter.responsible);
    return { partitions: [byOrder(partition)], drivenBy: 'responsible' };
  }
  if (filter.office) {
    const partition = keys.clientOfficeInvoices(client, filter.office);
    return { partitions: [byOrder(partition)], drivenBy: 'office' };
  }
  if (statuses.length > 0) {
    const partitions = statuses.map((status) => byOrder(keys.clientStatusInvoices(client, status)));
    return { partitions, drivenBy: 'status' };
  }
  if (types.length > 0) {
    const partitions = types.map((type) => byOrder(keys.clientTypeInvoices(client, type)));
    return { partitions, drivenBy: 'type' };
  }
  return { partitions: [byOrder(keys.clientInvoices(client))], drivenBy: null };
}

/** Pure: which partitions to read and what to filter, for a filter (without search) within a tenant scope. */
export function planInvoiceQuery(scope: InvoiceScope, filter: InvoiceFilter): InvoiceQueryPlan {
  const statuses = distinctSorted(filter.statuses);
  const types = distinctSorted(filter.types);
  const only = (path: string[], value: string | undefined): AttributeFilter | undefined =>
    value ? { path, anyOf: [value] } : undefined;
  const terms: Record<Term, AttributeFilter | undefined> = {
    client: scope.kind === 'SUPPLIER' ? only(['client'], scope.client) : undefined,
    issuer: scope.kind === 'COMPANY' ? only(['supplierId'], filter.issuer) : undefined,
    responsible: only(['responsible', 'id'], filter.responsible),
    office: only(['officeId'], filter.office),
    status: statuses.length > 0 ? { path: ['status'], anyOf: statuses } : undefined,
    type: types.length > 0 ? { path: ['type'], anyOf: types } : undefined,
    // Served by the due-date index's key range only: it drives whenever it is asked for.
    due: undefined,
  };
  const { partitions, drivenBy } = drive(scope, filter, statuses, types);
  const filters = TERMS.filter((term) => term !== drivenBy).flatMap((term) => terms[term] ?? []);
  // An observation is a map with its time; null (cleared) or absent has no `since`.
  if (filter.observed) filters.push({ path: ['observation', 'since'], present: true });
  const fingerprint = createHash('sha256')
    .update(JSON.stringify({ v: 2, partitions, filters }))
    .digest('base64url')
    .slice(0, 22);
  return { partitions, filters, fingerprint };
}

type KeyPosition = Extract<PartitionPosition, readonly string[]>;

/** A match read from one partition, with the key to resume after it. */
export interface FetchedItem<T> {
  readonly position: KeyPosition;
  readonly value: T;
}

export interface PartitionFetch<T> {
  /** Matches in the partition's order (index sort key descending). */
  readonly items: readonly FetchedItem<T>[];
  /** Key of the last item the reads evaluated; null when the partition has no more items. */
  readonly lastEvaluated: KeyPosition | null;
}

const sortKeyOf = (position: KeyPosition) => position[2];

/**
 * Pure k-way merge of what each partition returned, newest first. An item is taken only if every
 * partition still open has been read at least down to it: a partition that ran out of budget early
 * holds back older items of the others, which come on a later page. Each partition's new position is
 * the key of the last item taken from it; when everything read from it was taken, the position moves
 * to where its reads stopped ('done' when exhausted), so skipped non-matching items are not read again.
 */
export function mergeNewestFirst<T>(
  fetches: readonly PartitionFetch<T>[],
  previous: readonly PartitionPosition[],
  limit: number,
): { items: T[]; positions: PartitionPosition[] } {
  const frontiers = fetches.flatMap((fetch) => (fetch.lastEvaluated ? [sortKeyOf(fetch.lastEvaluated)] : []));
  // One partition is always complete down to its own items; several are merged on the invoice order.
  const frontier = fetches.length > 1 && frontiers.length > 0 ? frontiers.reduce((a, b) => (a > b ? a : b)) : null;
  const candidates = fetches
    .flatMap((fetch, partition) => fetch.items.map((item) => ({ item, partition })))
    .filter(({ item }) => frontier === null || sortKeyOf(item.position) >= frontier);
  if (fetches.length > 1) {
    candidates.sort((a, b) => {
      const [ka, kb] = [sortKeyOf(a.item.position), sortKeyOf(b.item.position)];
      return ka === kb ? a.partition - b.partition : ka > kb ? -1 : 1;
    });
  }
  const taken = candidates.slice(0, limit);
  const positions = fetches.map((fetch, partition): PartitionPosition => {
    const fromHere = taken.filter((candidate) => candidate.partition === partition);
    if (fromHere.length === fetch.items.length) return fetch.lastEvaluated ?? 'done';
    return fromHere.at(-1)?.item.position ?? previous[partition] ?? null;
  });
  return { items: taken.map(({ item }) => item.value), positions };
}

type RawItem = Record<string, unknown>;

/** Whether an invoice as read meets one of the plan's filters (the value at the path, or its presence). */
function meets(invoice: RawItem, filter: AttributeFilter): boolean {
  const value = filter.path.reduce<unknown>(
    (at, segment) => (at !== null && typeof at === 'object' ? (at as RawItem)[segment] : undefined),
    invoice,
  );
  if ('present' in filter) return value !== undefined && value !== null;
  return typeof value === 'string' && filter.anyOf.includes(value);
}

/**
 * Whether an entry still stands for its invoice as read: the invoice is in the entry's list at the entry's place. An
 * entry a crash left behind (a replaced rejection's, deleted after its transaction) names another reception time.
 */
function entryStands(entry: RawItem, invoice: RawItem, partition: string): boolean {
  return keys
    .invoiceLists(invoice as unknown as InvoiceIndexSource)
    .some(({ list, order }) => list === partition && order === entry.sk);
}

function positionOf(item: RawItem): KeyPosition {
  const [pk, sk] = [item[TABLE.partitionKey], item[TABLE.sortKey]];
  if (typeof pk !== 'string' || typeof sk !== 'string') throw new Error('List entry without string keys');
  // The cursor's positions keep three parts: the item's key and the sort key the lists merge on (the same here).
  return [pk, sk, sk];
}

/** The ExclusiveStartKey of a list: the entry to resume after, which must lie in the list and its range. */
function startKeyOf(query: PartitionQuery, position: KeyPosition | null): RawItem | undefined {
  if (position === null) return undefined;
  const [pk, sk] = position;
  // Outside the key condition DynamoDB would fail the read: a tampered cursor is the caller's error.
  if (pk !== keys.invoiceListPartition(query.partition) || !sk.startsWith(query.sortKeyPrefix)) {
    throw new BadRequestError('ERROR_INVALID_CURSOR');
  }
  if (query.range && (sk < query.range.from || sk > query.range.to)) throw new BadRequestError('ERROR_INVALID_CURSOR');
  return { [TABLE.partitionKey]: pk, [TABLE.sortKey]: sk };
}

async function fetchPartition(
  db: DynamoDBDocumentClient,
  table: string,
  query: PartitionQuery,
  position: KeyPosition | null,
  filters: readonly AttributeFilter[],
  wanted: number,
  budget: QueryBudget,
): Promise<PartitionFetch<RawItem>> {
  const items: FetchedItem<RawItem>[] = [];
  let startKey = startKeyOf(query, position);
  let queries = 0;
  // A due range as asked, or the keys under the prefix as a key range (key-range.ts says why not begins_with).
  const range = query.range ?? prefixRange(query.sortKeyPrefix);
  do {
    const result = await db.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
        ExpressionAttributeNames: { '#pk': TABLE.partitionKey, '#sk': TABLE.sortKey },
        ExpressionAttributeValues: {
          ':pk': keys.invoiceListPartition(query.partition),
          ':from': range.from,
          ':to': range.to,
        },
        // Newest received first; a due range soonest first.
        ScanIndexForward: query.range !== undefined,
        // Unfiltered, every entry read is a match: read no more than the page needs.
        Limit: filters.length > 0 ? budget.itemsPerQuery : Math.min(wanted - items.length, budget.itemsPerQuery),
        // The entries as written: an invoice just received or moved is in its lists at once.
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    const entries = result.Items ?? [];
    const invoices = await readInvoices(db, table, entries);
    for (const entry of entries) {
      const invoice = invoices.get(keys.invoice(String(entry.supplierId), String(entry.type), String(entry.id)).pk);
      if (!invoice || !entryStands(entry, invoice, query.partition)) continue;
      if (filters.every((filter) => meets(invoice, filter)))
        items.push({ position: positionOf(entry), value: invoice });
    }
    startKey = result.LastEvaluatedKey;
    queries += 1;
  } while (startKey && items.length < wanted && queries < budget.queriesPerPartition);
  return { items, lastEvaluated: startKey ? positionOf(startKey) : null };
}

/** Reads one page of a plan, resuming each partition where the cursor left it. */
export async function runInvoiceQuery(
  db: DynamoDBDocumentClient,
  table: string,
  plan: InvoiceQueryPlan,
  page: PageRequest,
  budget: QueryBudget = QUERY_BUDGET,
): Promise<Page<InvoiceSummary>> {
  if (plan.partitions.length === 0) {
    if (page.cursor !== undefined) throw new BadRequestError('ERROR_INVALID_CURSOR');
    return { items: [], nextCursor: null };
  }
  const previous =
    decodeMergedCursor(plan.fingerprint, plan.partitions.length, page.cursor) ?? plan.partitions.map(() => null);
  const fetches = await Promise.all(
    plan.partitions.map((query, i) => {
      const position = previous[i] ?? null;
      if (position === 'done') return { items: [], lastEvaluated: null } satisfies PartitionFetch<RawItem>;
      return fetchPartition(db, table, query, position, plan.filters, page.limit, budget);
    }),
  );
  const merged = mergeNewestFirst(fetches, previous, page.limit);
  return {
    items: merged.items.map((item) => InvoiceSummary.parse(item)),
    nextCursor: encodeMergedCursor(plan.fingerprint, merged.positions),
  };
}
