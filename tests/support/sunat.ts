import { expect } from 'vitest';
import type { Invoice } from '@portal/shared';
import { stage } from './stage.js';

/** The document the SUNAT simulator is asked about: RUC, series and number. */
type SunatDocument = Pick<Invoice, 'supplierId' | 'prefixId' | 'numericId'>;

/**
 * Chooses what the test stage's SUNAT simulator answers about `invoice` from now on (local/simulators/sunat.ts; its
 * request count starts again): 'VALID', 'FAILING', or one of its other outcomes.
 */
export async function sunatWillAnswer(invoice: SunatDocument, outcome: string): Promise<void> {
  const response = await fetch(`${stage().endpoints.sunat}/__control/outcomes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      numRuc: invoice.supplierId,
      numeroSerie: invoice.prefixId,
      numero: invoice.numericId,
      outcome,
    }),
  });
  expect(response.status).toBe(200);
}

/** How many times the SUNAT simulator was asked about `invoice` (the number as SUNAT reads it, without leading zeros). */
export async function sunatQueriesAbout(invoice: SunatDocument): Promise<number> {
  const response = await fetch(`${stage().endpoints.sunat}/__control/requests`);
  const counts = (await response.json()) as { documents: Record<string, number> };
  return (
    counts.documents[`${invoice.supplierId}-${invoice.prefixId}-${invoice.numericId.replace(/^0+(?=\d)/, '')}`] ?? 0
  );
}
