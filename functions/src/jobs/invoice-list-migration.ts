import type { Logger } from '@aws-lambda-powertools/logger';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Clock } from '../adapters/clock.js';
import {
  INVOICE_LISTS_PASS,
  SEARCH_ITEMS_PASS,
  makeInvoiceListMigrationRepository,
  type InvoiceListMigrationRepository,
  type InvoicePass,
  type StoredInvoiceItem,
} from '../repositories/invoice-list-migration.js';

/** Items read per page of the pass (invoices and everything else the table holds). */
export const MIGRATION_PAGE_ITEMS = 500;
/** Invoices migrated at once within a page (a transaction of a few items each: well within a table's capacity). */
const CONCURRENCY = 16;
/** Reads and writes again an invoice that moved while it was migrated, at most this many times. */
const ATTEMPTS = 5;

export interface InvoiceListMigrationDeps {
  readonly repository: InvoiceListMigrationRepository;
  readonly clock: Clock;
  readonly log: Pick<Logger, 'info' | 'warn'>;
  /** Milliseconds left to the run; the run saves its place and stops 30 s before they end. */
  readonly timeLeftMs: () => number;
}

export interface InvoiceListMigrationResult {
  readonly done: boolean;
  readonly migrated: number;
}

/**
 * A migration of every stored invoice: to list entries (docs/adr/0042-invoice-list-entries.md), or to search items
 * of one item per token (docs/adr/0045-search-items-shared.md), run by
 * `npm run migrate:lists` on a deployed stage (infra/bin/migrate-invoice-lists.ts) and by the local stage at start:
 * one pass over the table that writes, for every invoice as it stands, what the pass says (`InvoicePass`).
 * Resumable (its place is saved after every page, so a crash or a timeout repeats one page at most, and writing an
 * entry again changes nothing), and idempotent once done (a run reads its state and stops). Every invoice is taken,
 * also those a change already touched: a change of an invoice stored before entries writes only the entries that
 * moved, and the pass writes the others.
 */
export function makeInvoiceListMigration(deps: InvoiceListMigrationDeps) {
  const { repository, log } = deps;

  async function migrateOne(first: StoredInvoiceItem): Promise<boolean> {
    let invoice: StoredInvoiceItem | null = first;
    for (let attempt = 0; invoice && attempt < ATTEMPTS; attempt++) {
      if (await repository.migrate(invoice)) return true;
      invoice = await repository.reread(invoice);
    }
    if (invoice) throw new Error(`invoice ${first.pk} kept moving while its lists were migrated`);
    return false;
  }

  return {
    async run(): Promise<InvoiceListMigrationResult> {
      let state = await repository.state();
      if (state.doneAt) return { done: true, migrated: 0 };
      let migrated = 0;
      // One page needs a few seconds at most; the run leaves itself a margin to save its place.
      while (deps.timeLeftMs() > 30_000) {
        const page = await repository.page(state.startKey, MIGRATION_PAGE_ITEMS);
        for (let i = 0; i < page.invoices.length; i += CONCURRENCY) {
          const done = await Promise.all(page.invoices.slice(i, i + CONCURRENCY).map(migrateOne));
          migrated += done.filter(Boolean).length;
        }
        state = {
          startKey: page.next,
          migrated: state.migrated + page.invoices.length,
          doneAt: page.next ? null : deps.clock().toISOString(),
        };
        await repository.saveState(state);
        if (state.doneAt) {
          log.info(`${repository.name} migrated`, { invoices: state.migrated });
          return { done: true, migrated };
        }
      }
      log.info(`${repository.name} migration paused`, { invoices: state.migrated });
      return { done: false, migrated };
    },
  };
}

/**
 * Runs a pass on a table until it has ended (or, on a table already migrated, reads its state): what the command and
 * the local stage call. `log` gets a line per run of pages, in Spanish, for the person watching.
 */
async function runPass(
  db: DynamoDBDocumentClient,
  table: string,
  pass: InvoicePass,
  clock: Clock,
  log: (line: string) => void,
  label: string,
): Promise<InvoiceListMigrationResult> {
  const repository = makeInvoiceListMigrationRepository(db, table, pass);
  let migrated = 0;
  for (;;) {
    const started = Date.now();
    // Runs of a minute, each saving its place: an interrupted command starts again where the last run left it.
    const result = await makeInvoiceListMigration({
      repository,
      clock,
      log: { info: () => undefined, warn: (message) => log(String(message)) },
      timeLeftMs: () => 90_000 - (Date.now() - started),
    }).run();
    migrated += result.migrated;
    if (result.done) return { done: true, migrated };
    log(`${label}: ${migrated} comprobantes hasta ahora…`);
  }
}

/** The invoices stored before ADR 0042 get their list entries. */
export const migrateInvoiceLists = (
  db: DynamoDBDocumentClient,
  table: string,
  clock: Clock,
  log: (line: string) => void,
) => runPass(db, table, INVOICE_LISTS_PASS, clock, log, 'Migración de listas');

/** The invoices stored before ADR 0045 get their search items of one item per token. */
export const migrateSearchItems = (
  db: DynamoDBDocumentClient,
  table: string,
  clock: Clock,
  log: (line: string) => void,
) => runPass(db, table, SEARCH_ITEMS_PASS, clock, log, 'Migración de la búsqueda');
