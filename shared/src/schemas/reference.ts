import * as z from 'zod/mini';
import { TEXT_LIMITS } from '../limits.js';
import { PageQuery, Ruc } from './common.js';
import { PaymentRunDays } from './payment.js';

// Reference data a user picks from: employees, office locations, the group's companies, suppliers.

export const Employee = z.object({
  id: z.string(),
  fullName: z.string(),
  office: z.string(),
});
export type Employee = z.infer<typeof Employee>;

export const OfficeLocation = z.object({
  id: z.string(),
  location: z.string(),
  office: z.string(),
});
export type OfficeLocation = z.infer<typeof OfficeLocation>;

export const Client = z.object({
  taxId: Ruc,
  name: z.string(),
  address: z.string(),
  logo: z.nullable(z.string()),
  system_name: z.string(),
  /** Days of the month the company pays its suppliers (docs/ap-payment.md); absent: the due date itself. */
  paymentRunDays: z.optional(z.nullable(PaymentRunDays)),
  /** Designated by SUNAT as agente de retención del IGV (R.S. 037-2002/SUNAT). */
  igvRetentionAgent: z.optional(z.boolean()),
});
export type Client = z.infer<typeof Client>;

/** A supplier of the header search (spec §2 Header): RUC and business name. */
export const SupplierProfile = z.object({ taxId: Ruc, name: z.string() });
export type SupplierProfile = z.infer<typeof SupplierProfile>;

export const EmployeesQuery = z.object({
  acquirer: Ruc,
  q: z.optional(z.string().check(z.trim(), z.maxLength(TEXT_LIMITS.search))),
});
export const OfficeLocationsQuery = z.object({ taxId: Ruc });

/** Header search of suppliers: a RUC prefix (digits) or a business-name prefix. */
export const SearchSuppliersQuery = z.extend(PageQuery, {
  query: z.string().check(z.trim(), z.minLength(2), z.maxLength(TEXT_LIMITS.search)),
});
