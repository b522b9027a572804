import * as z from 'zod/mini';
import { Currency } from '../domain.js';
import { TEXT_LIMITS } from '../limits.js';
import { CONFORMITY_KINDS } from '../data/table.js';
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

/** The open HES or MIGO of one purchase order that add up to the invoice amount without IGV. */
export const SuggestionsQuery = z.object({
  purchaseOrder: z.string().check(z.minLength(1), z.maxLength(TEXT_LIMITS.sapDocumentId)),
});

export const ConformitySuggestion = z.object({
  kind: z.enum(CONFORMITY_KINDS),
  documents: z.array(ConformityDocument),
  total: Money,
  /** total − the invoice amount without IGV: negative when the documents fall short. */
  difference: z.number(),
  /** Within a cent of the amount without IGV: the §5 amount rule accepts it. */
  exact: z.boolean(),
});
export type ConformitySuggestion = z.infer<typeof ConformitySuggestion>;

export const ConformitySuggestions = z.object({
  purchaseOrder: z.string(),
  currency: Currency,
  /** The invoice amount without IGV the documents should add up to. */
  target: Money,
  /** Exact combinations first, then the closest; HES and MIGO never mixed. */
  suggestions: z.array(ConformitySuggestion),
  /** The order's documents of this supplier and currency that no other invoice holds. */
  candidates: z.number().check(z.int(), z.nonnegative()),
  /** False when the search stopped at its bound: a better combination may exist. */
  complete: z.boolean(),
});
export type ConformitySuggestions = z.infer<typeof ConformitySuggestions>;
