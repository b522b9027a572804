import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { makeClientRepository } from '../repositories/clients.js';
import { makeSapPostingCountsFold, type FoldOutcome } from '../repositories/sap-posting-counts-fold.js';

/**
 * The fold of every company's SAP posting counts onto its dashboard counters (ADR 0043), run by
 * `npm run migrate:lists` on a deployed stage once the deploy is over, and by the local stage at start. Counts per
 * outcome; safe to run again.
 */
export async function foldSapPostingCounts(
  db: DynamoDBDocumentClient,
  table: string,
): Promise<Record<FoldOutcome, number>> {
  const fold = makeSapPostingCountsFold(db, table);
  const outcomes: Record<FoldOutcome, number> = { FOLDED: 0, DROPPED: 0, NONE: 0 };
  for (const client of await makeClientRepository(db, table).listAll()) {
    outcomes[await fold.foldCompany(client.taxId)] += 1;
  }
  return outcomes;
}
