import { sessionRoutes } from '@portal/shared';
import { cognitoDirectoryFromEnv } from '../../adapters/cognito.js';
import { httpHandler } from '../../http/wrapper.js';
import { makeGetCurrentUser } from '../../use-cases/current-user.js';

const getCurrentUser = makeGetCurrentUser({ directory: cognitoDirectoryFromEnv() });

/** GET /users/me, the user-info call the navigation guard makes before each guarded route (spec §4). */
export const handler = httpHandler(sessionRoutes.getCurrentUser, ({ caller }) => getCurrentUser(caller));
