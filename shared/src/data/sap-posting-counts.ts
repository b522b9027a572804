import { keys, type ItemKey } from './table.js';

/**
 * A company's SAP postings by what the dashboard counts of them (docs/data-design.md, "MIRO outbox"): how many MIRO
 * records are open (PENDING, POSTING) and how many FAILED, moved in the same writes that move a record between those
 * (the approval, the MIRO worker, the sweeper, an administrator's retry). It sits beside the company's dashboard
 * counters. `exact` says that every record of the company was counted since it was created: the seed writes it, for a
 * table that holds no MIRO record yet; without it, the dashboard counts the records (two Query COUNTs).
 */
export interface SapPostingCounts {
  readonly open: number;
  readonly failed: number;
  readonly exact: boolean;
}

/** The item of a company's SAP posting counts, in its dashboard's partition. */
export function sapPostingCountsKey(client: string): ItemKey {
  return { pk: keys.dashboard(client, 'ALL').pk, sk: 'SAP_POSTINGS' };
}

/** The item as a table holding no MIRO record of the company starts it (the seed, a new company). */
export function emptySapPostingCounts(client: string): ItemKey & SapPostingCounts {
  return { ...sapPostingCountsKey(client), open: 0, failed: 0, exact: true };
}
