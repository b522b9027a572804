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
});
export type SessionUser = z.infer<typeof SessionUser>;
