import * as z from 'zod/mini';
import { Ruc } from './common.js';

// The dashboard's counts and query.

export const DashboardCounts = z.object({
  pending: z.int(),
  completed: z.int(),
  accepted: z.int(),
  rejected: z.int(),
  scheduled: z.int(),
  paid: z.int(),
  invService: z.int(),
  invGoods: z.int(),
  invUnassigned: z.int(),
  invWithoutPurchaseOrder: z.int(),
  /** Ley 29623 conformity clocks still running (por vencer): no answer registered, not presumed yet. */
  acquirerConformityOpen: z.int(),
  /** Ley 29623 conformity clocks that ran out without an answer (vencidas): conformity presumed. */
  acquirerConformityPresumed: z.int(),
  /** Approved invoices whose SAP posting is not done MIRO_POSTING.lateAfterSeconds after the approval (now). */
  latePostings: z.optional(z.int()),
  /** Approved invoices whose SAP posting FAILED (now; an administrator can retry them). */
  failedPostings: z.optional(z.int()),
});
export type DashboardCounts = z.infer<typeof DashboardCounts>;

export const DashboardQuery = z.object({
  client: Ruc,
  period: z.optional(z.string().check(z.regex(/^(0[1-9]|1[0-2])\/\d{4}$/, 'use el formato MM/AAAA'))),
});
