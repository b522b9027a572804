import { z } from 'zod';
import { InvoiceType } from '../domain.js';
import { Ruc } from './common.js';

/** What the MIRO queue carries: the invoice whose outbox record the worker must post to SAP. */
export const MiroRequestMessage = z.object({
  supplierId: Ruc,
  invoiceType: InvoiceType,
  invoiceId: z.string(),
  /** The outbox record's key: also the idempotency key of the SAP posting. */
  outboxKey: z.string(),
});
export type MiroRequestMessage = z.infer<typeof MiroRequestMessage>;
