import { RUNTIME_ENV } from '@portal/shared';
import { clock } from '../adapters/clock.js';
import { documentClient, tableName } from '../adapters/dynamodb.js';
import { sesMailer } from '../adapters/email.js';
import { logger } from '../observability/logger.js';
import { observed } from '../observability/observed.js';
import { makeClientRepository } from '../repositories/clients.js';
import { makeNotificationRepository } from '../repositories/notifications.js';
import { makeDailyDigest, type DailyDigestResult } from './daily-digest.js';

const digest = makeDailyDigest({
  clients: makeClientRepository(documentClient, tableName()),
  repository: makeNotificationRepository(documentClient, tableName()),
  mailer: sesMailer,
  clock,
  portalUrl: process.env[RUNTIME_ENV.webOrigin]?.split(',')[0]?.trim() || null,
  log: logger,
});

/**
 * The DailyDigest schedule (SCHEDULES.dailyDigest): an EventBridge rule at 12:00 UTC (07:00 Lima) in AWS; on the
 * local stage, a timer at that time and the SAP simulator's `POST /__control/schedules/DailyDigest` on demand.
 */
export const handler = observed(async (): Promise<DailyDigestResult> => digest.run());
