import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  BUCKETS,
  MIRO_POSTING,
  QUEUES,
  RUNTIME_ENV,
  SCHEDULES,
  SUNAT_CHECK,
  TABLE,
  localName,
  type WebConfig,
} from '@portal/shared';
import { CLOCK_OFFSET_FILE_ENV, offsetFileClock } from '../../functions/src/adapters/clock.js';
import { ROOT_DIR, type LocalStageConfig } from './config.js';
import { startGateway } from './gateway.js';
import type { LocalOutputs } from './outputs.js';
import { ensureBucket, ensureQueues, ensureTable } from './provision/aws-resources.js';
import { ensureIdentity } from './provision/identity.js';
import { startPoller, type SqsBatchHandler } from './poller.js';
import { seedConformityDemoIfAbsent } from './seed-conformity.js';
import { seedDocuments, seedIfEmpty } from './seed.js';
import {
  ADMIN_GROUP,
  CLIENTS,
  NO_HABIDO_SUPPLIER,
  CORPORATE_EMAIL_DOMAIN,
  DEMO_USERS,
  LOCAL_SSO_PROVIDER,
  RETIRED_DEMO_USERNAMES,
} from './seed-data.js';
import { issuer, jwksUrl, startCognito } from './services/cognito.js';
import { CORPORATE_SCOPES, startCorporateIdp } from './services/corporate-idp.js';
import { startDynamoDb } from './services/dynamodb.js';
import { startLambdaEndpoint } from './services/lambda-endpoint.js';
import { startMailbox } from './services/mailbox.js';
import { startOtlpReceiver } from './services/otlp.js';
import { startS3 } from './services/s3.js';
import { startSqs } from './services/sqs.js';
import { LOCAL_CREDENTIALS, assertPortFree, writeFileAtomic, type RunningService } from './services/types.js';
import { LOCAL_SAP_CREDENTIALS, localCompanyCodes, startSapSimulator } from './simulators/sap.js';
import { localSunatCredentials, startSunatSimulator } from './simulators/sunat.js';
import { stageClockFile } from './stage-clock.js';
import { startWebServer } from './web-server.js';

const TRIGGER_FUNCTION = 'portal-local-pre-token-generation';

export interface RunningStage {
  readonly outputs: LocalOutputs;
  stop(): Promise<void>;
}

const SERVICE_NAMES: Record<keyof LocalStageConfig['ports'], string> = {
  web: 'aplicación web',
  api: 'API',
  dynamodb: 'DynamoDB Local',
  s3: 'S3 (s3rver)',
  sqs: 'SQS (fauxqs)',
  cognito: 'Cognito',
  cognitoInternal: 'cognito-local',
  lambda: 'Lambda (disparadores de Cognito)',
  sunat: 'simulador SUNAT',
  sap: 'simulador SAP',
  mailbox: 'buzón local (SES)',
  corporateIdp: 'proveedor de identidad corporativo (OIDC)',
  otlp: 'receptor OTLP (trazas)',
};

function newestMtime(target: string): number {
  const info = statSync(target);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist' || entry.startsWith('.dist-')) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/**
 * Builds the web app when web/dist is missing or older than its sources (web/ and shared/). Stages
 * started at once on this machine (parallel test runs) take turns: a lock directory under .local
 * names the building process, and the others wait for it and then find the build fresh.
 */
export async function ensureWebBuild(log: (line: string) => void): Promise<string> {
  const dist = path.join(ROOT_DIR, 'web/dist');
  const lock = path.join(ROOT_DIR, '.local/web-build.lock');
  await mkdir(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch {
      const owner = Number(existsSync(path.join(lock, 'pid')) ? readFileSync(path.join(lock, 'pid'), 'utf8') : 0);
      const stale = owner ? !processAlive(owner) : Date.now() - statSync(lock).mtimeMs > 60_000;
      if (stale || Date.now() > deadline) await rm(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    await writeFile(path.join(lock, 'pid'), String(process.pid));
    const builtAt = existsSync(path.join(dist, 'index.html')) ? statSync(path.join(dist, 'index.html')).mtimeMs : 0;
    const sourcesAt = Math.max(newestMtime(path.join(ROOT_DIR, 'web')), newestMtime(path.join(ROOT_DIR, 'shared/src')));
    if (builtAt >= sourcesAt) return dist;
    log('Compilando la aplicación web (vite build)…');
    // Built beside web/dist and swapped in, so that a stage serving web/dist never sees it half-written.
    const next = path.join(ROOT_DIR, 'web/.dist-next');
    const previous = path.join(ROOT_DIR, 'web/.dist-previous');
    const result = spawnSync('npm', ['run', 'build', '-w', 'web', '--', '--outDir', next, '--emptyOutDir'], {
      cwd: ROOT_DIR,
      // Vite keeps a NODE_ENV it finds (vitest sets `test`), and React and Cloudscape then build in development
      // mode: the stage serves, and the size budgets measure, the production build only.
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
    });
    if (result.status !== 0)
      throw new Error(`La compilación de la aplicación web falló:\n${result.stdout}\n${result.stderr}`);
    await rm(previous, { recursive: true, force: true });
    if (existsSync(dist)) await rename(dist, previous);
    await rename(next, dist);
    await rm(previous, { recursive: true, force: true });
    return dist;
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Brings the whole product up on this machine: the stand-ins, the simulators, the handlers behind the
 * local gateway and the web app, provisioned from the same definitions as the CDK stacks and seeded.
 */
export async function startLocalStage(
  config: LocalStageConfig,
  log: (line: string) => void = console.log,
): Promise<RunningStage> {
  const { host, ports, dataDir, stage, region } = config;
  const logsDir = path.join(dataDir, 'logs');
  await mkdir(logsDir, { recursive: true });
  await rm(path.join(dataDir, 'outputs.json'), { force: true });

  for (const [key, port] of Object.entries(ports) as [keyof LocalStageConfig['ports'], number][]) {
    // DynamoDB Local listens on every interface: probe the wildcard address for it.
    await assertPortFree(port, key === 'dynamodb' ? '0.0.0.0' : host, SERVICE_NAMES[key]);
  }

  const url = (port: number) => `http://${host}:${port}`;
  const webUrl = url(ports.web);
  const webOrigins = [webUrl, `http://localhost:${ports.web}`];
  const tableName = localName(stage, TABLE.logicalName);
  const documentsBucket = localName(stage, BUCKETS.documents.id);
  // One pair of SUNAT API credentials per company of the group: the simulator checks them, the worker uses them.
  const sunatCredentials = localSunatCredentials(CLIENTS.map((client) => client.taxId));

  // The handlers read their configuration once, at import: the environment is complete before they load.
  Object.assign(process.env, {
    AWS_REGION: region,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: url(ports.dynamodb),
    AWS_ENDPOINT_URL_S3: url(ports.s3),
    AWS_ENDPOINT_URL_SQS: url(ports.sqs),
    AWS_ENDPOINT_URL_SESV2: url(ports.mailbox),
    AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER: url(ports.cognito),
    EMAIL_SENDER: 'Portal de Proveedores <no-responder@proveedores.local>',
    AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
    AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
    [RUNTIME_ENV.stage]: stage,
    [RUNTIME_ENV.tableName]: tableName,
    [RUNTIME_ENV.webOrigin]: webOrigins.join(','),
    [RUNTIME_ENV.s3ForcePathStyle]: 'true',
    [RUNTIME_ENV.adminGroupName]: ADMIN_GROUP,
    // A disabled account is refused within a second here (60 s in AWS), so that tests need not wait a minute.
    [RUNTIME_ENV.disabledUsersTtlSeconds]: process.env[RUNTIME_ENV.disabledUsersTtlSeconds] ?? '1',
    [BUCKETS.documents.env]: documentsBucket,
    SAP_BASE_URL: url(ports.sap),
    SAP_CREDENTIALS: JSON.stringify(LOCAL_SAP_CREDENTIALS),
    SAP_COMPANY_CODES: JSON.stringify(localCompanyCodes()),
    // A failed MIRO attempt is tried again after 2 s, 4 s, 8 s … here (30 s, 60 s … in AWS), so tests need not wait minutes.
    [MIRO_POSTING.timeScaleEnv]: process.env[MIRO_POSTING.timeScaleEnv] ?? '2',
    // An invoice still waiting for SUNAT is looked at again after 5 s, 10 s … here (10 min, 20 min … in AWS).
    [SUNAT_CHECK.timeScaleEnv]: process.env[SUNAT_CHECK.timeScaleEnv] ?? '5',
    SUNAT_TOKEN_URL: url(ports.sunat),
    SUNAT_API_URL: url(ports.sunat),
    SUNAT_CREDENTIALS: JSON.stringify(sunatCredentials),
    POWERTOOLS_SERVICE_NAME: 'portal-proveedores',
    POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'WARN',
    // Spans go to the stage's OTLP receiver, as they go to the ADOT collector layer in AWS (localhost:4318).
    OTEL_EXPORTER_OTLP_ENDPOINT: url(ports.otlp),
    OTEL_SERVICE_NAME: `portal-${stage}`,
    // No CloudWatch here: EMF metric lines would only fill the console.
    POWERTOOLS_METRICS_DISABLED: 'true',
    // The stage's one clock offset (npm run clock), read by every handler, worker and job through the clock port.
    [CLOCK_OFFSET_FILE_ENV]: stageClockFile(dataDir),
  });
  // The simulators read the same offset: SUNAT's and SAP's "now" is the stage's.
  const stageClock = offsetFileClock(stageClockFile(dataDir));

  const running: RunningService[] = [];
  const stop = async () => {
    for (const service of running.reverse()) {
      await service.stop().catch((error: Error) => log(`No se pudo detener ${service.name}: ${error.message}`));
    }
    running.length = 0;
  };

  try {
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
        // The seed's NO HABIDO supplier stays so for whatever it sends (issue 21, the RUC risk gate).
        taxpayers: { [NO_HABIDO_SUPPLIER.taxId]: { estadoRuc: '00', condDomiRuc: '12' } },
      }),
      startSapSimulator(ports.sap, host, { stateFile: path.join(dataDir, 'sap-state.jsonl'), clock: stageClock }),
      startMailbox({ port: ports.mailbox, host, dataDir }),
      startCorporateIdp({
        port: ports.corporateIdp,
        host,
        dataDir,
        client: corporateClient,
        users: DEMO_USERS.flatMap((user) =>
          user.federated
            ? [
                {
                  subject: user.federated.subject,
                  email: user.username,
                  password: user.password,
                  givenName: user.firstName,
                  familyName: user.lastName,
                  groups: user.federated.groups,
                },
              ]
            : [],
        ),
      }),
    ]);
    running.push(dynamodb, s3, sqs, cognito, sunat, sap, mailbox, corporateIdp);

    const credentials = { ...LOCAL_CREDENTIALS };
    const ddb = new DynamoDBClient({ region, endpoint: dynamodb.endpoint, credentials });
    const sqsClient = new SQSClient({ region, endpoint: sqs.endpoint, credentials });
    const s3Client = new S3Client({
      region,
      endpoint: s3.endpoint,
      credentials,
      forcePathStyle: true,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    const [, queues, , identity] = await Promise.all([
      ensureTable(ddb, tableName),
      ensureQueues(sqsClient, stage),
      ensureBucket(s3Client, documentsBucket),
      ensureIdentity({
        endpoint: cognito.endpoint,
        stateFile: path.join(dataDir, 'identity.json'),
        users: DEMO_USERS,
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
        issuer: corporateIdp.issuer,
        clientId: corporateClient.clientId,
        clientSecret: corporateClient.clientSecret,
        scopes: CORPORATE_SCOPES,
        groupsClaim: 'groups',
      },
    });
    for (const [key, def] of Object.entries(QUEUES)) process.env[def.env] = queues[key as keyof typeof QUEUES].url;
    process.env[RUNTIME_ENV.userPoolId] = identity.userPoolId;
    process.env[RUNTIME_ENV.userPoolClientId] = identity.userPoolClientId;

    if (await seedIfEmpty(DynamoDBDocumentClient.from(ddb), tableName, identity.usernames)) {
      await seedDocuments(s3Client, documentsBucket);
      log('Datos de demostración cargados.');
    }
    // The Ley 29623 demo, relative to the stage's clock when it is first seeded (its own marker). The test stage
    // goes without (LOCAL_CONFORMITY_DEMO=off): its tests move the clock, which would presume the demo's conformities
    // and leave notices dated days ahead in the demo supplier's feed, which other tests read.
    if (process.env.LOCAL_CONFORMITY_DEMO !== 'off') {
      const db = DynamoDBDocumentClient.from(ddb);
      const conformityDemo = await seedConformityDemoIfAbsent(db, tableName, stageClock());
      if (conformityDemo.length > 0) await seedDocuments(s3Client, documentsBucket, conformityDemo);
    }

    const poolIssuer = issuer(cognito.endpoint, identity.userPoolId);
    const api = await startGateway({
      port: ports.api,
      host,
      jwksUrl: jwksUrl(cognito.endpoint, identity.userPoolId),
      issuer: poolIssuer,
      audience: identity.userPoolClientId,
      webOrigins,
      region,
      log: (line) => log(`[api] ${line}`),
    });
    running.push(api);

    // Lambda's SQS event source mapping, for every queue whose consumer has landed.
    for (const [key, def] of Object.entries(QUEUES) as [keyof typeof QUEUES, (typeof QUEUES)[keyof typeof QUEUES]][]) {
      if (!def.consumer) continue;
      const worker = (await import(
        pathToFileURL(path.join(ROOT_DIR, 'functions/src/workers', `${def.consumer}.ts`)).href
      )) as {
        handler: SqsBatchHandler;
      };
      const poller = startPoller({
        sqs: sqsClient,
        queueUrl: queues[key].url,
        queueArn: queues[key].arn,
        dlqUrl: queues[key].dlqUrl,
        maxReceiveCount: def.maxReceiveCount,
        batchSize: def.batchSize,
        visibilityTimeoutSeconds: def.visibilityTimeoutSeconds,
        region,
        handler: worker.handler,
        log: (level, message) => log(`[${def.id}] ${level}: ${message}`),
      });
      running.push({ name: `poller ${def.id}`, endpoint: queues[key].url, stop: () => poller.stop() });
    }

    running.push(await startSchedules(sap, log));

    const webConfig: WebConfig = {
      stage,
      apiUrl: api.endpoint,
      region,
      userPoolId: identity.userPoolId,
      userPoolClientId: identity.userPoolClientId,
      cognitoEndpoint: cognito.endpoint,
      oauth: {
        baseUrl: cognito.endpoint,
        providerName: LOCAL_SSO_PROVIDER,
        redirectSignIn: `${webUrl}/login`,
        redirectSignOut: `${webUrl}/`,
        scopes: [...CORPORATE_SCOPES],
      },
      corporateEmailDomains: [CORPORATE_EMAIL_DOMAIN],
      chat: null,
      waf: null,
    };
    const web = await startWebServer({
      port: ports.web,
      host,
      distDir: await ensureWebBuild(log),
      config: webConfig,
      storageEndpoint: s3.endpoint,
    });
    running.push(web);

    const outputs: LocalOutputs = {
      stage,
      dataDir,
      webUrl: web.endpoint,
      apiUrl: api.endpoint,
      region,
      userPoolId: identity.userPoolId,
      userPoolClientId: identity.userPoolClientId,
      cognitoEndpoint: cognito.endpoint,
      issuer: poolIssuer,
      corporateIdp: { issuer: corporateIdp.issuer, providerName: LOCAL_SSO_PROVIDER },
      endpoints: {
        dynamodb: dynamodb.endpoint,
        s3: s3.endpoint,
        sqs: sqs.endpoint,
        sunat: sunat.endpoint,
        sap: sap.endpoint,
        mailbox: mailbox.endpoint,
        otlp: otlp.endpoint,
      },
      tableName,
      documentsBucket,
      queues: Object.fromEntries(
        Object.entries(queues).map(([key, queue]) => [key, { url: queue.url, dlqUrl: queue.dlqUrl }]),
      ),
      demoUsers: DEMO_USERS.map(({ username, password, role, signIn, taxId, description }) => ({
        username,
        password,
        role,
        signIn,
        taxId,
        description,
      })),
    };
    // Whole or not at all: the launcher (and a developer's tools) read it as soon as it exists.
    await writeFileAtomic(path.join(dataDir, 'outputs.json'), `${JSON.stringify(outputs, null, 2)}\n`);
    return { outputs, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * EventBridge's rules on this machine: each job of shared SCHEDULES runs on its own timer (every
 * LOCAL_SCHEDULE_SECONDS when set, else its localEverySeconds or everyMinutes), never two runs of one job at a time. The
 * SAP simulator's `POST /__control/schedules/{id}` runs one now, for tests and demos.
 */
async function startSchedules(
  sap: { setScheduleRunner(run: (id: string) => Promise<void>): void },
  log: (line: string) => void,
): Promise<RunningService> {
  const everySeconds = Number(process.env.LOCAL_SCHEDULE_SECONDS) || null;
  const jobs = new Map<string, () => Promise<void>>();
  const timers: NodeJS.Timeout[] = [];
  for (const def of Object.values(SCHEDULES)) {
    const job = (await import(pathToFileURL(path.join(ROOT_DIR, 'functions/src/jobs', `${def.handler}.ts`)).href)) as {
      handler: (event: unknown) => Promise<unknown>;
    };
    // Runs one after another: a run asked for while one is under way starts when it ends.
    let last: Promise<void> = Promise.resolve();
    const run = () => {
      const next = last
        .catch(() => undefined)
        .then(() =>
          job.handler({
            source: 'aws.events',
            'detail-type': 'Scheduled Event',
            detail: {},
            time: new Date().toISOString(),
          }),
        )
        .then(
          () => undefined,
          (error: Error) => {
            log(`[${def.id}] error: ${error.message}`);
            throw error;
          },
        );
      last = next;
      return next;
    };
    jobs.set(def.id, run);
    const localEvery = 'localEverySeconds' in def ? def.localEverySeconds : def.everyMinutes * 60;
    const timer = setInterval(() => run().catch(() => undefined), (everySeconds ?? localEvery) * 1000);
    timer.unref();
    timers.push(timer);
  }
  sap.setScheduleRunner(async (id) => {
    const run = jobs.get(id);
    if (!run) throw new Error(`no schedule ${id}`);
    await run();
  });
  return {
    name: 'schedules',
    endpoint: 'timers',
    stop: async () => {
      for (const timer of timers) clearInterval(timer);
    },
  };
}
