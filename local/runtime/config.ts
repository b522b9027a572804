import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Node flags of the stage's process (`npm start`'s script and launch.ts): a young generation sized for one process
 * that serves the API, the workers and the stand-ins of every function at once (ADR 0047). With V8's default
 * (16 MB semi-spaces) its scavenges took 14 % of its CPU under the API benchmark's load.
 */
export const STAGE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];

/**
 * Where the local stage keeps its data and which ports it takes. Tests run a second stage beside a
 * developer's one with LOCAL_STAGE_DIR and LOCAL_PORT_BASE.
 */
export interface LocalStageConfig {
  readonly stage: string;
  readonly dataDir: string;
  readonly host: string;
  readonly region: string;
  /**
   * Test tenants seeded beside the demo world (LOCAL_TEST_TENANTS; none unless a test run asks): each a world of its
   * own companies, suppliers and accounts (seed-data.ts tenantParties), so that test files share one stage apart.
   */
  readonly tenants: number;
  readonly ports: {
    readonly web: number;
    readonly api: number;
    readonly dynamodb: number;
    readonly s3: number;
    readonly sqs: number;
    /** The Cognito endpoint clients use (the refresh-rewriting proxy in front of cognito-local). */
    readonly cognito: number;
    /** cognito-local itself. */
    readonly cognitoInternal: number;
    /** Lambda Invoke API serving the Cognito triggers. */
    readonly lambda: number;
    readonly sunat: number;
    readonly sap: number;
    /** The local mailbox: SES v2's SendEmail, and a page listing what was sent. */
    readonly mailbox: number;
    /** The local corporate identity provider (OIDC) behind the 'cuenta corporativa' button. */
    readonly corporateIdp: number;
    /** The OTLP receiver the handlers export their spans to (the ADOT collector's place in AWS). */
    readonly otlp: number;
    /** The SMTP server receiving the invoices sent by e-mail (SES receiving's place in AWS). */
    readonly smtp: number;
  };
}

export function loadLocalConfig(env: NodeJS.ProcessEnv = process.env): LocalStageConfig {
  const base = Number(env.LOCAL_PORT_BASE ?? 4700);
  if (!Number.isInteger(base) || base < 1024 || base > 65000) {
    throw new Error(`LOCAL_PORT_BASE debe ser un puerto entre 1024 y 65000 (recibido: ${env.LOCAL_PORT_BASE})`);
  }
  const tenants = Number(env.LOCAL_TEST_TENANTS ?? 0);
  if (!Number.isInteger(tenants) || tenants < 0 || tenants > 99) {
    throw new Error(`LOCAL_TEST_TENANTS debe ser un entero entre 0 y 99 (recibido: ${env.LOCAL_TEST_TENANTS})`);
  }
  return {
    stage: 'local',
    tenants,
    dataDir: path.resolve(ROOT_DIR, env.LOCAL_STAGE_DIR ?? '.local'),
    host: '127.0.0.1',
    region: 'us-east-1',
    ports: {
      web: base,
      api: base + 1,
      dynamodb: base + 2,
      s3: base + 3,
      sqs: base + 4,
      cognito: base + 5,
      cognitoInternal: base + 6,
      lambda: base + 7,
      sunat: base + 8,
      sap: base + 9,
      mailbox: base + 10,
      corporateIdp: base + 11,
      otlp: base + 12,
      smtp: base + 13,
    },
  };
}
