import * as z from 'zod';
import { Currency } from '../domain.js';
import { Money, PageQuery, Ruc } from './common.js';

// Conformity documents (HES, MIGO) and their queries.

export const ConformityDocument = z.object({
  fiscalYear: z.string(),
  issuerTaxId: Ruc,
  acquirerTaxId: Ruc,
  documentId: z.string(),
  deliveryNote: z.string().nullable(),
  purchaseOrder: z.string(),
  associatedInvoice: z.string().nullable(),
  amount: Money,
  currency: Currency,
  responsible: z.string().nullable(),
});
export type ConformityDocument = z.infer<typeof ConformityDocument>;

export const ConformityQuery = PageQuery.extend({
  acquirer: Ruc,
  issuer: Ruc.optional(),
  responsible: z.string().min(1).optional(),
});

export const AvailabilityPath = z.object({ id: z.string().min(1).max(30) });
export const AvailabilityQuery = z.object({ acquirer: Ruc, issuer: Ruc });
