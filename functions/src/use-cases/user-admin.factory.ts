import { randomUUID } from 'node:crypto';
import { RUNTIME_ENV } from '@portal/shared';
import { cognitoDirectoryFromEnv, generateTemporaryPassword } from '../adapters/cognito.js';
import { documentClient, tableName } from '../adapters/dynamodb.js';
import { sesMailer } from '../adapters/email.js';
import { logger } from '../observability/logger.js';
import { makeAccountIndexRepository } from '../repositories/account-index.js';
import { makeAuditLogRepository } from '../repositories/audit-log.js';
import { makeClientRepository } from '../repositories/clients.js';
import { makeSupplierProfileRepository } from '../repositories/supplier-profiles.js';
import { makeSupplierDirectoryRepository } from '../repositories/suppliers.js';
import { makeUserAdminChanges } from '../repositories/user-admin-changes.js';
import { makeUserAdmin } from './user-admin.js';
import { clock } from '../adapters/clock.js';

/** The user administration wired to Cognito, DynamoDB and SES, built once per cold start. */
export const userAdmin = makeUserAdmin({
  directory: cognitoDirectoryFromEnv(),
  accounts: makeAccountIndexRepository(documentClient, tableName()),
  auditLog: makeAuditLogRepository(documentClient, tableName()),
  commit: makeUserAdminChanges(documentClient, tableName()).commit,
  supplierSearch: makeSupplierDirectoryRepository(documentClient, tableName()),
  profiles: makeSupplierProfileRepository(documentClient, tableName()),
  clients: makeClientRepository(documentClient, tableName()),
  mailer: sesMailer,
  clock,
  newId: randomUUID,
  newPassword: generateTemporaryPassword,
  portalUrl: process.env[RUNTIME_ENV.webOrigin]?.split(',')[0]?.trim() || null,
  adminGroupName: process.env[RUNTIME_ENV.adminGroupName]?.trim() || 'portal-admins',
  log: logger,
});
