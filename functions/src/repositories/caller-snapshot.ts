import { Level } from '@portal/shared';
import * as z from 'zod/mini';
import type { Caller } from '../http/caller.js';

/**
 * Who asked for a deferred job (an export, a zip of documents), kept with the job so its worker acts later as that
 * person would: the same reach over the list, the same audit actor. Their token no longer matters: the job was
 * allowed when asked for.
 */
export const CallerSnapshot = z.object({
  sub: z.string(),
  username: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  level: Level,
  taxIds: z.array(z.string()),
  groups: z.array(z.string()),
  activeCompany: z.nullable(z.string()),
  /** How they signed in and the call that asked (absent on export jobs stored before the audit trail). */
  signIn: z.optional(z.enum(['PASSWORD', 'CORPORATE', 'EMAIL', 'API'])),
  txId: z.optional(z.string()),
});
export type CallerSnapshot = z.infer<typeof CallerSnapshot>;

export function callerSnapshot(caller: Caller): CallerSnapshot {
  return {
    sub: caller.sub,
    username: caller.username,
    email: caller.email,
    firstName: caller.firstName,
    lastName: caller.lastName,
    level: caller.level,
    taxIds: [...caller.taxIds],
    groups: [...caller.groups],
    activeCompany: caller.activeCompany,
    signIn: caller.signIn,
    txId: caller.txId,
  };
}

/** The snapshot as a use case takes a caller; a job stored before the audit trail reads as a password sign-in. */
export function callerOfSnapshot(snapshot: CallerSnapshot): Caller {
  return {
    ...snapshot,
    expiresAt: Number.MAX_SAFE_INTEGER,
    signIn: snapshot.signIn ?? 'PASSWORD',
    txId: snapshot.txId ?? '',
  };
}
