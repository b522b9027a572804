import * as z from 'zod';
import { Ruc } from './common.js';

// The dashboard's counts and query.

export const DashboardCounts = z.object({
  pending: z.number().int(),
  completed: z.number().int(),
  accepted: z.number().int(),
  rejected: z.number().int(),
  scheduled: z.number().int(),
  paid: z.number().int(),
  invService: z.number().int(),
  invGoods: z.number().int(),
  invUnassigned: z.number().int(),
  invWithoutPurchaseOrder: z.number().int(),
});
export type DashboardCounts = z.infer<typeof DashboardCounts>;

export const DashboardQuery = z.object({
  client: Ruc,
  period: z
    .string()
    .regex(/^(0[1-9]|1[0-2])\/\d{4}$/, 'use el formato MM/AAAA')
    .optional(),
});
