import { RUNTIME_ENV } from '@portal/shared';
import { sesMailer } from '../adapters/email.js';
import { userAdminDepsWith } from './user-admin-wiring.js';

/**
 * The user administration's adapters (Cognito, DynamoDB and SES), built once per cold start; each user handler
 * passes them to its use case (use-cases/user-admin/).
 */
export const userAdminDeps = userAdminDepsWith({
  mailer: sesMailer,
  portalUrl: process.env[RUNTIME_ENV.webOrigin]?.split(',')[0]?.trim() || null,
});
