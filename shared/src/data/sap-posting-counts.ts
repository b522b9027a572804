import { keys, type ItemKey } from './table.js';

/**
 * A company's SAP postings by what the dashboard counts of them (docs/data-design.md, "MIRO outbox"): how many MIRO
 * records are open (PENDING, POSTING) and how many FAILED, moved in the same writes that move a record between those
 * (the approval, the MIRO worker, the sweeper, an administrator's retry). They are attributes of the company's
 * all-time dashboard counters (ADR 0043), so that the dashboard is one GetItem. `exact` says that every record of the
 * company was counted since it was created: the seed writes it, for a table that holds no MIRO record yet, and the
 * fold of the older item carries it over; without it, the dashboard counts the records (two Query COUNTs).
 */
export interface SapPostingCounts {
  readonly open: number;
  readonly failed: number;
  readonly exact: boolean;
}

/** The attributes of the counts on the company's counters item. */
export const SAP_POSTING_ATTRIBUTES = {
  open: 'sapPostingsOpen',
  failed: 'sapPostingsFailed',
  exact: 'sapPostingsExact',
} as const;

/** The item that holds a company's SAP posting counts: its all-time dashboard counters. */
export function sapPostingCountsKey(client: string): ItemKey {
  return keys.dashboard(client, 'ALL');
}

/**
 * The item of its own that held a company's counts before ADR 0043 (`open`, `failed`, `exact`); the fold
 * (functions/src/jobs/sap-posting-counts-fold.ts) moves them onto the counters and deletes it.
 */
export function legacySapPostingCountsKey(client: string): ItemKey {
  return { pk: keys.dashboard(client, 'ALL').pk, sk: 'SAP_POSTINGS' };
}

/** How a move changes the counts, as ADD amounts of the counters item's attributes (zeros left out). */
export function sapPostingCountsDelta(delta: { open?: number; failed?: number }): Record<string, number> {
  const moved: Record<string, number> = {};
  for (const name of ['open', 'failed'] as const) {
    if ((delta[name] ?? 0) !== 0) moved[SAP_POSTING_ATTRIBUTES[name]] = delta[name]!;
  }
  return moved;
}

/** The counts' attributes as a table holding no MIRO record of the company starts them (the seed, a new company). */
export function emptySapPostingCounts(): Record<string, number | boolean> {
  return { [SAP_POSTING_ATTRIBUTES.open]: 0, [SAP_POSTING_ATTRIBUTES.failed]: 0, [SAP_POSTING_ATTRIBUTES.exact]: true };
}

/** The counts as the counters item holds them; null when no move ever wrote them and the seed did not start them. */
export function sapPostingCountsOf(item: Readonly<Record<string, unknown>> | undefined): SapPostingCounts | null {
  if (!item) return null;
  const { open, failed, exact } = SAP_POSTING_ATTRIBUTES;
  if (item[open] === undefined && item[failed] === undefined && item[exact] === undefined) return null;
  return { open: Number(item[open] ?? 0), failed: Number(item[failed] ?? 0), exact: item[exact] === true };
}
