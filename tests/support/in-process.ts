import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SQSRecord } from 'aws-lambda';
import type { MiroRequestMessage } from '@portal/shared';
import { makeSapClient, type SapPort } from '../../functions/src/adapters/sap.js';
import type { Caller } from '../../functions/src/http/caller.js';
import { makeInvoiceStore } from '../../functions/src/repositories/invoice-store.js';
import { makeMiroOutbox } from '../../functions/src/repositories/miro-outbox.js';
import { makeNoteLinks } from '../../functions/src/repositories/note-links.js';
import { makeOutgoing } from '../../functions/src/repositories/outgoing.js';
import type { ReviewDeps } from '../../functions/src/use-cases/review/review-deps.js';
import { LOCAL_SAP_CREDENTIALS, localCompanyCodes } from '../../local/simulators/sap.js';
import { LOCAL_CREDENTIALS } from '../../local/stand-ins/types.js';
import { stage } from './stage.js';
import { stageCompanies } from './tenant.js';

/**
 * The pieces a test needs to run the portal's use cases and workers in its own process against the test stage's
 * table and SAP simulator (a worker that dies half-way, a message held back): the same modules the stage runs, wired
 * here instead of by its pollers.
 */

/** A document client of the stage's DynamoDB Local that drops undefined attributes, as the functions' own does. */
export function inProcessDb(): DynamoDBDocumentClient {
  const { endpoints, region } = stage();
  return DynamoDBDocumentClient.from(
    new DynamoDBClient({ region, endpoint: endpoints.dynamodb, credentials: LOCAL_CREDENTIALS }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
}

/** The SAP client of the functions, against the stage's SAP simulator and its companies' codes. */
export function realSap(): SapPort {
  return makeSapClient({
    baseUrl: stage().endpoints.sap,
    credentials: async () => LOCAL_SAP_CREDENTIALS,
    companyCodes: localCompanyCodes(stageCompanies()),
  });
}

/** An administrator signed in with a password, as the wrapper hands a use case its caller. */
export function adminCaller(who: { readonly sub: string; readonly email: string; readonly lastName: string }): Caller {
  return {
    sub: who.sub,
    username: who.sub,
    email: who.email,
    firstName: 'Pruebas',
    lastName: who.lastName,
    level: 'ADMIN',
    taxIds: [],
    groups: [],
    activeCompany: null,
    expiresAt: Math.floor(Date.now() / 1000) + 3600,
    signIn: 'PASSWORD',
    txId: 'test-tx',
  };
}

/**
 * The review use cases' dependencies in this process: the stage's table, its MIRO messages kept in `miroMessages`
 * instead of sent to the stage's queue (every other queue's dropped), on `clock`.
 */
export function inProcessReviewDeps(miroMessages: MiroRequestMessage[], clock: () => Date): ReviewDeps {
  const db = inProcessDb();
  const { tableName } = stage();
  const dropped = { send: async () => undefined };
  return {
    store: makeInvoiceStore(db, tableName),
    outgoing: makeOutgoing(
      db,
      tableName,
      {
        miroRequests: { send: async (body) => void miroMessages.push(body as MiroRequestMessage) },
        notifications: dropped,
        sunatValidation: dropped,
        exports: dropped,
        inboundMail: dropped,
        intakeBatches: dropped,
      },
      { error: () => undefined },
    ),
    clock,
    log: { info: () => undefined, error: () => undefined },
    miro: makeMiroOutbox(db, tableName),
    noteLinks: makeNoteLinks(db, tableName),
  };
}

/** An SQS record of `message` (a string as it is), as the queue hands it a worker on its `receiveCount`-th delivery. */
export function sqsRecordOf(message: unknown, receiveCount = 1, messageId = randomUUID()): SQSRecord {
  return {
    messageId,
    receiptHandle: messageId,
    body: typeof message === 'string' ? message : JSON.stringify(message),
    attributes: {
      ApproximateReceiveCount: String(receiveCount),
      SentTimestamp: String(Date.now()),
      SenderId: '000000000000',
      ApproximateFirstReceiveTimestamp: String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:in-process-tests',
    awsRegion: 'us-east-1',
  };
}
