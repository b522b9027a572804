import { RUNTIME_ENV } from '@portal/shared';
import { sesMailer } from '../adapters/email.js';
import { wireUserAdmin } from './user-admin-wiring.js';

/** The user administration wired to Cognito, DynamoDB and SES, built once per cold start. */
export const userAdmin = wireUserAdmin({
  mailer: sesMailer,
  portalUrl: process.env[RUNTIME_ENV.webOrigin]?.split(',')[0]?.trim() || null,
});
