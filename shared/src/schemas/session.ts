import * as z from 'zod/mini';
import { Level } from '../domain.js';

// The session user.

/** The signed-in user as the navigation guard sees it (spec §3 "Session user"). */
export const SessionUser = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  group: z.nullable(z.string()),
  email: z.string(),
  level: Level,
  taxId: z.nullable(z.string()),
  /**
   * The companies of `taxId` with their names: a supplier's RUCs as the supplier directory knows them (the
   * business name its forms use), staff's companies as the group registers them; null where none is known.
   */
  companies: z.array(z.object({ taxId: z.string(), name: z.nullable(z.string()) })),
});
export type SessionUser = z.infer<typeof SessionUser>;
