import { routes } from '@portal/shared';
import { httpHandler } from '../../http/wrapper.js';

/**
 * GET /users/me, the user-info call the navigation guard makes before each guarded route (spec §4).
 * The token is the source: Cognito put the level and taxId in it at sign-in.
 */
export const handler = httpHandler(routes.getCurrentUser, async ({ caller }) => ({
  id: caller.sub,
  firstName: caller.firstName,
  lastName: caller.lastName,
  group: caller.groups[0] ?? null,
  email: caller.email,
  level: caller.level,
  taxId: caller.taxIds.length > 0 ? caller.taxIds.join(',') : null,
}));
