import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { BUCKETS, TABLE, localName, type QueueKey } from '@portal/shared';
import { offsetFileClock } from '../../functions/src/adapters/clock.js';
import { makeApiClientRepository } from '../../functions/src/repositories/api-clients.js';
import { migrateInvoiceLists, migrateSearchItems } from '../../functions/src/jobs/invoice-list-migration.js';
import { foldSapPostingCounts } from '../../functions/src/jobs/sap-posting-counts-fold.js';
import type { LocalStageConfig } from './config.js';
import { localEnvironment, provisionedEnvironment } from './environment.js';
import { startGateway } from './gateway.js';
import type { LocalOutputs } from './outputs.js';
import { provisionStage } from './provision/stage.js';
import { startSchedules } from './schedules.js';
import { seedConformityDemoIfAbsent } from '../seed/seed-conformity.js';
import { seedDocuments, seedIfEmpty } from '../seed/seed.js';
import { ADMIN_GROUP, buildWorld, stageParties } from '../seed/seed-data.js';
import { issuer, jwksUrl } from '../stand-ins/cognito/cognito.js';
import { assertPortFree, writeFileAtomic, type RunningService } from '../stand-ins/types.js';
import { LOCAL_SAP_CREDENTIALS, localCompanyCodes } from '../simulators/sap.js';
import { localSunatCredentials } from '../simulators/sunat.js';
import { startStandIns } from './stand-ins.js';
import { stageClockFile } from './stage-clock.js';
import { ensureWebBuild } from './web-build.js';
import { startWebServer } from './web-server.js';
import { startWorkers } from './workers.js';
import { outputsOf, webConfigOf } from './stage-outputs.js';
import { LOCAL_INTAKE_MAIL_DOMAIN, LOCAL_MAIL_DNS } from '../simulators/mail-dns.js';
import { startSmtpServer } from '../stand-ins/smtp.js';

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
  smtp: 'servidor SMTP (comprobantes por correo)',
};

/**
 * Brings the whole product up on this machine: the stand-ins, the simulators, the handlers behind the
 * local gateway and the web app, provisioned from the same definitions as the CDK stacks and seeded.
 */
export async function startLocalStage(
  config: LocalStageConfig,
  log: (line: string) => void = console.log,
): Promise<RunningStage> {
  const { host, ports, dataDir, region } = config;
  const { webUrl, webOrigins, tableName, documentsBucket, inboundMailBucket, worlds, sunatCredentials } =
    await prepareStage(config);
  // The simulators read the same offset: SUNAT's and SAP's "now" is the stage's.
  const stageClock = offsetFileClock(stageClockFile(dataDir));

  const running: RunningService[] = [];
  const stop = async () => {
    for (const service of running.reverse()) {
      await service.stop().catch((error: Error) => log(`No se pudo detener ${service.name}: ${error.message}`));
    }
    running.length = 0;
  };

  // How long each part of the start took, printed once the stage is ready (docs/testing.md reads them).
  const phases: string[] = [];
  let phaseStart = Date.now();
  const phase = (name: string) => {
    phases.push(`${name} ${((Date.now() - phaseStart) / 1000).toFixed(1)} s`);
    phaseStart = Date.now();
  };

  try {
    const standIns = await startStandIns({ config, webOrigins, sunatCredentials, clock: stageClock, running });
    const { otlp, dynamodb, s3, sqs, cognito, sunat, sap, mailbox, corporateIdp, corporateClient } = standIns;
    phase('servicios');
    const { ddb, sqsClient, s3Client, queues, identity } = await provisionStage({
      config,
      tableName,
      documentsBucket,
      inboundMailBucket,
      webOrigins,
      endpoints: { dynamodb: dynamodb.endpoint, sqs: sqs.endpoint, s3: s3.endpoint },
      cognito,
      corporate: { issuer: corporateIdp.issuer, client: corporateClient },
    });
    Object.assign(
      process.env,
      provisionedEnvironment({
        queueUrls: Object.fromEntries(Object.entries(queues).map(([key, queue]) => [key, queue.url])) as Record<
          QueueKey,
          string
        >,
        userPoolId: identity.userPoolId,
        userPoolClientId: identity.userPoolClientId,
      }),
    );

    phase('aprovisionamiento');
    const db = DynamoDBDocumentClient.from(ddb);
    await seedAndMigrate({ db, s3Client, tableName, documentsBucket, worlds, stageClock, log, phase }, identity);

    phase('migraciones');
    const poolIssuer = issuer(cognito.endpoint, identity.userPoolId);
    const api = await startGateway({
      port: ports.api,
      host,
      jwksUrl: jwksUrl(cognito.endpoint, identity.userPoolId),
      issuer: poolIssuer,
      audience: identity.userPoolClientId,
      machineAudience: activeApiClient(db, tableName),
      webOrigins,
      region,
      accessLog: process.env.LOCAL_API_ACCESS_LOG !== 'off',
      log: (line) => log(`[api] ${line}`),
    });
    running.push(api);

    const smtp = await startBackground({ config, sqsClient, s3Client, queues, inboundMailBucket, sap, running, log });

    phase('funciones');
    const web = await startWebServer({
      port: ports.web,
      host,
      distDir: await ensureWebBuild(log),
      config: webConfigOf(config, { apiUrl: api.endpoint, identity, cognitoEndpoint: cognito.endpoint, webUrl }),
      storageEndpoint: s3.endpoint,
    });
    running.push(web);

    const outputs = outputsOf(config, {
      web: web.endpoint,
      api: api.endpoint,
      identity,
      cognitoEndpoint: cognito.endpoint,
      poolIssuer,
      corporateIssuer: corporateIdp.issuer,
      endpoints: {
        dynamodb: dynamodb.endpoint,
        s3: s3.endpoint,
        sqs: sqs.endpoint,
        sunat: sunat.endpoint,
        sap: sap.endpoint,
        mailbox: mailbox.endpoint,
        otlp: otlp.endpoint,
        smtp: smtp.endpoint,
      },
      tableName,
      documentsBucket,
      queues,
    });
    // Whole or not at all: the launcher (and a developer's tools) read it as soon as it exists.
    phase('web');
    log(`Arranque: ${phases.join(', ')}.`);
    await writeFileAtomic(path.join(dataDir, 'outputs.json'), `${JSON.stringify(outputs, null, 2)}\n`);
    return { outputs, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Before anything starts: the data directory's logs, its last outputs removed, every port free, the stage's names
 * and worlds, and the handlers' environment (they read it once, at import).
 */
async function prepareStage(config: LocalStageConfig) {
  const { host, ports, dataDir, stage } = config;
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
  const inboundMailBucket = localName(stage, BUCKETS.inboundMail.id);
  // One pair of SUNAT API credentials per company of the group: the simulator checks them, the worker uses them.
  // The demo world's, and each test tenant's (LOCAL_TEST_TENANTS), every company with its SUNAT credentials and SAP code.
  const worlds = stageParties(config.tenants);
  const companies = worlds.flatMap((parties) => parties.clients);
  const sunatCredentials = localSunatCredentials(companies.map((client) => client.taxId));

  // The handlers read their configuration once, at import: the environment is complete before they load.
  Object.assign(
    process.env,
    localEnvironment({
      config,
      tableName,
      documentsBucket,
      inboundMailBucket,
      webOrigins,
      adminGroupName: ADMIN_GROUP,
      sap: { credentials: LOCAL_SAP_CREDENTIALS, companyCodes: localCompanyCodes(companies) },
      sunatCredentials,
      inherited: process.env,
    }),
  );
  return { webUrl, webOrigins, tableName, documentsBucket, inboundMailBucket, worlds, sunatCredentials };
}

/** What runs beside the API: the queue workers, the SMTP server (SES receiving's stand-in) and the schedules. */
async function startBackground({
  config,
  sqsClient,
  s3Client,
  queues,
  inboundMailBucket,
  sap,
  running,
  log,
}: {
  config: LocalStageConfig;
  sqsClient: Parameters<typeof startWorkers>[0]['sqs'];
  s3Client: Parameters<typeof startSmtpServer>[0]['s3'];
  queues: Parameters<typeof startWorkers>[0]['queues'];
  inboundMailBucket: string;
  sap: Parameters<typeof startSchedules>[0];
  running: RunningService[];
  log: (line: string) => void;
}): Promise<RunningService> {
  running.push(...(await startWorkers({ sqs: sqsClient, queues, region: config.region, log })));
  // SES receiving's stand-in: what it takes goes to the inboundMail queue's worker, as in AWS.
  const smtp = await startSmtpServer({
    port: config.ports.smtp,
    host: config.host,
    intakeDomain: LOCAL_INTAKE_MAIL_DOMAIN,
    dns: LOCAL_MAIL_DNS,
    s3: s3Client,
    bucket: inboundMailBucket,
    sqs: sqsClient,
    queueUrl: queues.inboundMail.url,
    log,
  });
  running.push(smtp);
  running.push(await startSchedules(sap, log));
  return smtp;
}

/** What seeding and the migrations need: the table, the documents' bucket, the worlds, the clock, the log. */
interface SeedContext {
  readonly db: DynamoDBDocumentClient;
  readonly s3Client: Parameters<typeof seedDocuments>[0];
  readonly tableName: string;
  readonly documentsBucket: string;
  readonly worlds: ReturnType<typeof stageParties>;
  readonly stageClock: () => Date;
  readonly log: (line: string) => void;
  readonly phase: (name: string) => void;
}

/** The demo data (once), the Ley 29623 demo, and the data migrations of earlier versions' data directories. */
async function seedAndMigrate(
  { db, s3Client, tableName, documentsBucket, worlds, stageClock, log, phase }: SeedContext,
  identity: { readonly usernames: Parameters<typeof seedIfEmpty>[2] },
): Promise<void> {
  if (await seedIfEmpty(db, tableName, identity.usernames, worlds)) {
    phase('tabla');
    await seedDocuments(
      s3Client,
      documentsBucket,
      worlds.flatMap((parties) => buildWorld(undefined, parties).invoices),
    );
    log('Datos de demostración cargados.');
  }
  // The Ley 29623 demo, relative to the stage's clock when it is first seeded (its own marker). The test stage
  // goes without (LOCAL_CONFORMITY_DEMO=off): its tests move the clock, which would presume the demo's conformities
  // and leave notices dated days ahead in the demo supplier's feed, which other tests read.
  if (process.env.LOCAL_CONFORMITY_DEMO !== 'off') {
    const conformityDemo = await seedConformityDemoIfAbsent(db, tableName, stageClock());
    if (conformityDemo.length > 0) await seedDocuments(s3Client, documentsBucket, conformityDemo);
  }

  // Invoices stored before their list entries (ADR 0042: a data directory of an earlier version) get them before
  // the stage serves, by the same migration as `npm run migrate:lists` runs on a deployed stage; on a table already
  // migrated it reads its state and stops.
  phase('datos');
  const migration = await migrateInvoiceLists(db, tableName, stageClock, log);
  if (migration.migrated > 0) log(`Listas de comprobantes migradas: ${migration.migrated} comprobantes.`);
  // ... and wrote each search token of an invoice twice, once per scope (ADR 0045).
  const search = await migrateSearchItems(db, tableName, stageClock, log);
  if (search.migrated > 0) log(`Búsqueda de comprobantes migrada: ${search.migrated} comprobantes.`);
  // A data directory of an earlier version kept the SAP posting counts on an item of their own (ADR 0043).
  await foldSapPostingCounts(db, tableName);
}

/** How long the local gateway trusts its read of the active API clients (a revocation takes effect within it). */
const API_CLIENTS_TTL_MS = 500;

/**
 * Whether a client id is an active API client's: the part of the JWT authorizer's audience that the API clients' use
 * case keeps in AWS, read from the same table items. The list is read again at most once per API_CLIENTS_TTL_MS, and
 * at once for an id it does not hold (a client just created is accepted at its first call; a revoked one within the
 * TTL).
 */
function activeApiClient(db: DynamoDBDocumentClient, tableName: string): (clientId: string) => Promise<boolean> {
  const repository = makeApiClientRepository(db, tableName);
  let cached: { ids: ReadonlySet<string>; readAt: number } | null = null;
  const read = async () => {
    const readAt = Date.now();
    const clients = await repository.list();
    cached = { ids: new Set(clients.filter((c) => c.revokedAt === null).map((c) => c.clientId)), readAt };
    return cached.ids;
  };
  return async (clientId) => {
    const fresh = cached && Date.now() - cached.readAt < API_CLIENTS_TTL_MS;
    if (fresh && cached!.ids.has(clientId)) return true;
    return (await read()).has(clientId);
  };
}
