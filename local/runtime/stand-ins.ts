import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT_DIR, type LocalStageConfig } from './config.js';
import { stageParties } from '../seed/seed-data.js';
import { startCognito } from '../stand-ins/cognito/cognito.js';
import { corporateDirectory, startCorporateIdp } from '../simulators/corporate-idp.js';
import { startDynamoDb } from '../stand-ins/dynamodb.js';
import { startLambdaEndpoint } from '../stand-ins/lambda-endpoint.js';
import { startMailbox } from '../stand-ins/mailbox.js';
import { startOtlpReceiver } from '../stand-ins/otlp.js';
import { startS3 } from '../stand-ins/s3.js';
import { startSqs } from '../stand-ins/sqs.js';
import type { RunningService } from '../stand-ins/types.js';
import { startSapSimulator } from '../simulators/sap.js';
import { startSunatSimulator, type SunatApiCredentials } from '../simulators/sunat.js';

/** The name the user pool's pre-token trigger has at the local Lambda endpoint. */
const TRIGGER_FUNCTION = 'portal-local-pre-token-generation';

/**
 * Starts what stands in for AWS and the outside world on this machine: the OTLP receiver, the Lambda endpoint of
 * the Cognito trigger, DynamoDB, S3, SQS, Cognito, the SUNAT and SAP simulators, the mailbox and the corporate IdP.
 * Each is pushed on `running` as soon as it runs, so that a failure further on stops it.
 */
export async function startStandIns(options: {
  readonly config: LocalStageConfig;
  readonly webOrigins: readonly string[];
  readonly sunatCredentials: Readonly<Record<string, SunatApiCredentials>>;
  /** The stage's clock: SUNAT's and SAP's "now". */
  readonly clock: () => Date;
  readonly running: RunningService[];
}) {
  const { config, webOrigins, sunatCredentials, running } = options;
  const { host, ports, dataDir, region } = config;
  const stageClock = options.clock;
  const worlds = stageParties(config.tenants);
  const url = (port: number) => `http://${host}:${port}`;
  // First, so that the first span a handler exports has somewhere to go.
  const otlp = await startOtlpReceiver({ port: ports.otlp, host, dataDir });
  running.push(otlp);
  const trigger = (await import(
    pathToFileURL(path.join(ROOT_DIR, 'functions/src/triggers/pre-token-generation.ts')).href
  )) as {
    handler: (event: unknown) => Promise<unknown>;
  };
  const lambda = await startLambdaEndpoint({
    port: ports.lambda,
    host,
    functions: { [TRIGGER_FUNCTION]: trigger.handler },
  });
  running.push(lambda);
  // The user pool's confidential client at the corporate IdP (Entra ID's app registration in AWS).
  const corporateClient = {
    clientId: 'portal-user-pool',
    clientSecret: randomBytes(24).toString('base64url'),
    redirectUris: [`${url(ports.cognito)}/oauth2/idpresponse`],
  };
  const [dynamodb, s3, sqs, cognito, sunat, sap, mailbox, corporateIdp] = await Promise.all([
    startDynamoDb({ port: ports.dynamodb, dataDir }),
    startS3({ port: ports.s3, host, dataDir, corsOrigins: webOrigins }),
    startSqs({ port: ports.sqs, host, region }),
    startCognito({
      port: ports.cognito,
      internalPort: ports.cognitoInternal,
      host,
      dataDir,
      lambdaEndpoint: lambda.endpoint,
      triggerFunctionName: TRIGGER_FUNCTION,
    }),
    startSunatSimulator(ports.sunat, host, {
      credentials: sunatCredentials,
      clock: stageClock,
      // The seed's NO HABIDO supplier stays so for whatever it sends (the RUC risk gate).
      taxpayers: Object.fromEntries(
        worlds.map((parties) => [parties.noHabidoSupplier.taxId, { estadoRuc: '00', condDomiRuc: '12' }]),
      ),
    }),
    startSapSimulator(ports.sap, host, { stateFile: path.join(dataDir, 'sap-state.jsonl'), clock: stageClock, worlds }),
    startMailbox({ port: ports.mailbox, host, dataDir }),
    startCorporateIdp({
      port: ports.corporateIdp,
      host,
      dataDir,
      client: corporateClient,
      users: corporateDirectory(worlds.flatMap((parties) => parties.users)),
    }),
  ]);
  running.push(dynamodb, s3, sqs, cognito, sunat, sap, mailbox, corporateIdp);
  return { otlp, lambda, dynamodb, s3, sqs, cognito, sunat, sap, mailbox, corporateIdp, corporateClient };
}
