import { sessionRoutes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';

/** POST /users/verify-session: the session is valid and the company it acts for is allowed. */
export const handler = httpHandler(sessionRoutes.verifySession, async ({ caller }) => ({
  valid: true as const,
  expiresAt: new Date(caller.expiresAt * 1000).toISOString(),
  level: caller.level,
  activeCompany: caller.activeCompany,
  companies: [...caller.taxIds],
}));
