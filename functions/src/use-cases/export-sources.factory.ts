import { randomUUID } from 'node:crypto';
import { RUNTIME_ENV } from '@portal/shared';
import { clock } from '../adapters/clock.js';
import { cognitoDirectoryFromEnv, generateTemporaryPassword } from '../adapters/cognito.js';
import { documentClient, tableName } from '../adapters/dynamodb.js';
import { logger } from '../observability/logger.js';
import { makeAccountIndexRepository } from '../repositories/account-index.js';
import { makeAuditLogRepository } from '../repositories/audit-log.js';
import { makeClientRepository } from '../repositories/clients.js';
import { makeSupplierProfileRepository } from '../repositories/supplier-profiles.js';
import { makeSupplierDirectoryRepository } from '../repositories/suppliers.js';
import { makeUserAdminChanges } from '../repositories/user-admin-changes.js';
import { makeUserAdmin } from './user-admin.js';

/**
 * The suppliers' accounts as the administration lists them (the same use case, not a copy of its filters), for the
 * exports worker: it only lists, so it is given no mailer (a listing sends nothing) and no e-mail grant.
 */
export const supplierAccountsListing = makeUserAdmin({
  directory: cognitoDirectoryFromEnv(),
  accounts: makeAccountIndexRepository(documentClient, tableName()),
  auditLog: makeAuditLogRepository(documentClient, tableName()),
  commit: makeUserAdminChanges(documentClient, tableName()).commit,
  supplierSearch: makeSupplierDirectoryRepository(documentClient, tableName()),
  profiles: makeSupplierProfileRepository(documentClient, tableName()),
  clients: makeClientRepository(documentClient, tableName()),
  mailer: {
    send: () => Promise.reject(new Error('the exports worker sends no e-mail')),
  },
  clock,
  newId: randomUUID,
  newPassword: generateTemporaryPassword,
  portalUrl: null,
  adminGroupName: process.env[RUNTIME_ENV.adminGroupName]?.trim() || 'portal-admins',
  log: logger,
});
