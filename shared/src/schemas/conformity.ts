import * as z from 'zod/mini';
import { Currency } from '../domain.js';
import { TEXT_LIMITS } from '../limits.js';
import { Money, PageQuery, Ruc } from './common.js';

// Conformity documents (HES, MIGO) and their queries.

export const ConformityDocument = z.object({
  fiscalYear: z.string(),
  issuerTaxId: Ruc,
  acquirerTaxId: Ruc,
  documentId: z.string(),
  deliveryNote: z.nullable(z.string()),
  purchaseOrder: z.string(),
  associatedInvoice: z.nullable(z.string()),
  amount: Money,
  currency: Currency,
  responsible: z.nullable(z.string()),
});
export type ConformityDocument = z.infer<typeof ConformityDocument>;

export const ConformityQuery = z.extend(PageQuery, {
  acquirer: Ruc,
  issuer: z.optional(Ruc),
  responsible: z.optional(z.string().check(z.minLength(1), z.maxLength(TEXT_LIMITS.referenceId))),
});

export const AvailabilityPath = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(TEXT_LIMITS.sapDocumentId)),
});
export const AvailabilityQuery = z.object({ acquirer: Ruc, issuer: Ruc });
