import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import path from 'node:path';
import type { LocalStageConfig } from '../config.js';
import { LOCAL_SSO_PROVIDER, RETIRED_DEMO_USERNAMES, stageParties } from '../../seed/seed-data.js';
import type { RunningCognito } from '../../stand-ins/cognito/cognito.js';
import { CORPORATE_SCOPES } from '../../simulators/corporate-idp.js';
import { LOCAL_CREDENTIALS } from '../../stand-ins/types.js';
import { ensureBucket, ensureQueues, ensureTable } from './aws-resources.js';
import { ensureIdentity } from './identity.js';

/**
 * Provisions the stage on its stand-ins from the same definitions as the CDK stacks: the table, the queues, the
 * documents bucket, the user pool with its clients and demo users, and the pool's federation with the corporate IdP.
 * Answers the clients it made and what provisioning made.
 */
export async function provisionStage(options: {
  readonly config: LocalStageConfig;
  readonly tableName: string;
  readonly documentsBucket: string;
  readonly inboundMailBucket: string;
  readonly webOrigins: readonly string[];
  readonly endpoints: { readonly dynamodb: string; readonly sqs: string; readonly s3: string };
  readonly cognito: RunningCognito;
  /** The corporate IdP and the user pool's confidential client there. */
  readonly corporate: {
    readonly issuer: string;
    readonly client: { readonly clientId: string; readonly clientSecret: string };
  };
}) {
  const { config, tableName, documentsBucket, webOrigins, cognito } = options;
  const { dataDir, stage, region } = config;
  const credentials = { ...LOCAL_CREDENTIALS };
  const ddb = new DynamoDBClient({ region, endpoint: options.endpoints.dynamodb, credentials });
  const sqsClient = new SQSClient({ region, endpoint: options.endpoints.sqs, credentials });
  const s3Client = new S3Client({
    region,
    endpoint: options.endpoints.s3,
    credentials,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const [, queues, , , identity] = await Promise.all([
    // LOCAL_DYNAMODB_TTL=off: no expiry job (the benchmarks' stages: see ensureTable).
    ensureTable(ddb, tableName, { timeToLive: process.env.LOCAL_DYNAMODB_TTL !== 'off' }),
    ensureQueues(sqsClient, stage),
    ensureBucket(s3Client, documentsBucket),
    ensureBucket(s3Client, options.inboundMailBucket),
    ensureIdentity({
      endpoint: cognito.endpoint,
      stateFile: path.join(dataDir, 'identity.json'),
      users: stageParties(config.tenants).flatMap((parties) => parties.users),
      retiredUsernames: RETIRED_DEMO_USERNAMES,
      hostedUi: {
        callbackUrls: webOrigins.map((origin) => `${origin}/login`),
        logoutUrls: webOrigins.map((origin) => `${origin}/`),
        identityProviders: [LOCAL_SSO_PROVIDER],
      },
      region,
    }),
  ]);
  cognito.federate({
    userPoolId: identity.userPoolId,
    clientId: identity.userPoolClientId,
    callbackUrls: webOrigins.map((origin) => `${origin}/login`),
    logoutUrls: webOrigins.map((origin) => `${origin}/`),
    provider: {
      name: LOCAL_SSO_PROVIDER,
      issuer: options.corporate.issuer,
      clientId: options.corporate.client.clientId,
      clientSecret: options.corporate.client.clientSecret,
      scopes: CORPORATE_SCOPES,
      groupsClaim: 'groups',
    },
  });
  return { ddb, sqsClient, s3Client, queues, identity };
}
