import { randomUUID } from 'node:crypto';
import { RUNTIME_ENV } from '@portal/shared';
import { clock } from '../adapters/clock.js';
import { cognitoDirectoryFromEnv, generateTemporaryPassword } from '../adapters/cognito.js';
import { documentClient, tableName } from '../adapters/dynamodb.js';
import type { Mailer } from '../adapters/email.js';
import { logger } from '../observability/logger.js';
import { makeAccountIndexRepository } from '../repositories/account-index.js';
import { makeAuditLogRepository } from '../repositories/audit-log.js';
import { makeClientRepository } from '../repositories/clients.js';
import { makeSupplierProfileRepository } from '../repositories/supplier-profiles.js';
import { makeSupplierDirectoryRepository } from '../repositories/suppliers.js';
import { makeUserAdminChanges } from '../repositories/user-admin-changes.js';
import type { UserAdminDeps } from './user-admin-accounts.js';

/**
 * The user administration's adapters (Cognito and DynamoDB), with the mailer and portal address given: the API's
 * (user-admin.factory.ts, SES) and the exports worker's, which only lists and sends nothing (export-sources.factory.ts).
 * Kept apart from the SES adapter, so that a function that sends no e-mail does not load it.
 */
export function userAdminDepsWith(options: { mailer: Mailer; portalUrl: string | null }): UserAdminDeps {
  return {
    directory: cognitoDirectoryFromEnv(),
    accounts: makeAccountIndexRepository(documentClient, tableName()),
    auditLog: makeAuditLogRepository(documentClient, tableName()),
    commit: makeUserAdminChanges(documentClient, tableName()).commit,
    supplierSearch: makeSupplierDirectoryRepository(documentClient, tableName()),
    profiles: makeSupplierProfileRepository(documentClient, tableName()),
    clients: makeClientRepository(documentClient, tableName()),
    mailer: options.mailer,
    clock,
    newId: randomUUID,
    newPassword: generateTemporaryPassword,
    portalUrl: options.portalUrl,
    adminGroupName: process.env[RUNTIME_ENV.adminGroupName]?.trim() || 'portal-admins',
    log: logger,
  };
}
