import { BUCKETS, QUEUES, RUNTIME_ENV } from '@portal/shared';
import { clock } from '../../adapters/clock.js';
import { cognitoDirectoryFromEnv } from '../../adapters/cognito.js';
import { documentClient, tableName } from '../../adapters/dynamodb.js';
import { sesMailer } from '../../adapters/email.js';
import { makeInboundMailBucket } from '../../adapters/inbound-mail-bucket.js';
import { logger } from '../../observability/logger.js';
import { meter } from '../../observability/metrics.js';
import { makeClientRepository } from '../../repositories/clients.js';
import { makeInboundMailRepository } from '../../repositories/inbound-mail.js';
import { makeNotificationRepository } from '../../repositories/notifications.js';
import { parseSunatDocument } from '../../ubl/index.js';
import type { InboundMailDeps, SenderAccount } from './inbound-mail-deps.js';
import { intakeDeps } from '../intake/intake.factory.js';
import { registerFromFiles } from '../intake/register-files.js';

const directory = cognitoDirectoryFromEnv();
const clients = makeClientRepository(documentClient, tableName());
const repository = makeInboundMailRepository(documentClient, tableName());

/**
 * The supplier account of an address: exactly one enabled, password (not corporate) account with that e-mail and a
 * RUC; the address of a staff member, of a disabled account or of two accounts sends nothing.
 */
async function findSender(email: string): Promise<SenderAccount | null> {
  const page = await directory.listUsers({ limit: 2, email });
  const matches = page.users.filter((user) => user.email.toLowerCase() === email.toLowerCase());
  if (matches.length !== 1) return null;
  const user = matches[0]!;
  if (!user.enabled || user.federated || user.taxIds.length === 0) return null;
  return {
    userId: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    taxIds: user.taxIds,
  };
}

/**
 * The e-mail intake's real adapters (S3, DynamoDB, Cognito, SES and the intake of 'Cargar XML'), built once per cold
 * start; the inbound-mail worker passes them to processInboundMail.
 */
export const inboundMailDeps: InboundMailDeps = {
  raw: makeInboundMailBucket(),
  processed: repository.processed,
  answerQuota: repository.answerQuota,
  senders: { find: findSender },
  companies: { exists: async (taxId) => (await clients.get(taxId)) !== null },
  partiesOf: (xml) => {
    try {
      const parsed = parseSunatDocument(xml);
      return { supplier: parsed.supplier.taxId, customer: parsed.customer.taxId };
    } catch {
      return null;
    }
  },
  fromFiles: (caller, files) => registerFromFiles(intakeDeps, caller, files),
  mailer: sesMailer,
  feed: makeNotificationRepository(documentClient, tableName()),
  clock,
  intakeDomain: process.env[RUNTIME_ENV.intakeMailDomain] ?? '',
  portalUrl: process.env[RUNTIME_ENV.webOrigin]?.split(',')[0]?.trim() || null,
  log: {
    info: (message, extra) => logger.info(message, extra),
    warn: (message, extra) => logger.warn(message, extra),
  },
  meter,
  maxAttempts: QUEUES.inboundMail.maxReceiveCount,
};

/** The bucket SES (or the local SMTP server) writes to: a message naming another is not read. */
export const inboundMailBucket = process.env[BUCKETS.inboundMail.env] ?? '';
