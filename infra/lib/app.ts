import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Annotations, App, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { EDGE_REGION, EdgeStack } from './edge-stack.js';
import { StatefulStack } from './stateful-stack.js';
import { StatelessStack } from './stateless-stack.js';
import { EXAMPLE_MAIL_DOMAIN, PLACEHOLDER_ID, resolveStageConfig, type StageConfig } from './stage-config.js';
import { emailDomain } from './stage-mail.js';

const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Where the CDK app finds the code it deploys; tests may point elsewhere. */
export const PORTAL_PATHS = {
  handlersDir: path.join(ROOT_DIR, 'functions/src/handlers'),
  workersDir: path.join(ROOT_DIR, 'functions/src/workers'),
  jobsDir: path.join(ROOT_DIR, 'functions/src/jobs'),
  triggersDir: path.join(ROOT_DIR, 'functions/src/triggers'),
  preTokenGenerationEntry: path.join(ROOT_DIR, 'functions/src/triggers/pre-token-generation.ts'),
  webDistDir: path.join(ROOT_DIR, 'web/dist'),
} as const;

/**
 * The context of cdk.json (feature flags, default stage). The CLI passes it to the app itself; reading it
 * here too makes an in-process synthesis (tests) behave exactly like `cdk synth`.
 */
export function cdkJsonContext(): Record<string, unknown> {
  const file = path.join(ROOT_DIR, 'cdk.json');
  const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as { context?: Record<string, unknown> };
  return parsed.context ?? {};
}

export interface BuildPortalAppOptions {
  /** CDK context, e.g. `{ stage: 'dev' }`, over cdk.json's; `-c` values given to the CLI win over both. */
  readonly context?: Record<string, unknown>;
  /** Cloud assembly directory. @default the CLI's, or a temporary directory */
  readonly outdir?: string;
  /** Run cdk-nag AwsSolutions at synthesis. @default true */
  readonly nag?: boolean;
  readonly paths?: Partial<typeof PORTAL_PATHS>;
}

export interface PortalApp {
  readonly app: App;
  readonly config: StageConfig;
  readonly stateful: StatefulStack;
  readonly stateless: StatelessStack;
  readonly edge: EdgeStack;
}

export function stackNames(stage: string): { stateful: string; stateless: string; edge: string } {
  return { stateful: `Portal-${stage}-Stateful`, stateless: `Portal-${stage}-Stateless`, edge: `Portal-${stage}-Edge` };
}

/** Builds both stacks of the selected stage; `app.synth()` (or the CLI) synthesizes them. */
export function buildPortalApp(options: BuildPortalAppOptions = {}): PortalApp {
  const app = new App({ context: { ...cdkJsonContext(), ...options.context }, outdir: options.outdir });
  const config = resolveStageConfig((key) => app.node.tryGetContext(key));
  const paths = { ...PORTAL_PATHS, ...options.paths };
  const env = { account: config.account, region: config.region };
  const names = stackNames(config.stage);

  const edge = new EdgeStack(app, names.edge, {
    env: { account: config.account, region: EDGE_REGION },
    config,
    description: `Portal de Proveedores (${config.stage}): AWS WAF web ACL of the site and the API (CloudFront, us-east-1)`,
    crossRegionReferences: true,
  });

  const stateful = new StatefulStack(app, names.stateful, {
    env,
    config,
    description: `Portal de Proveedores (${config.stage}): data, documents, queues, identity`,
    terminationProtection: config.retain,
    preTokenGenerationEntry: paths.preTokenGenerationEntry,
  });
  const stateless = new StatelessStack(app, names.stateless, {
    env,
    config,
    description: `Portal de Proveedores (${config.stage}): API, functions, web app`,
    data: stateful.data,
    storage: stateful.storage,
    queues: stateful.queues,
    identity: stateful.identity,
    sunat: stateful.sunat,
    sap: stateful.sap,
    email: stateful.email,
    handlersDir: paths.handlersDir,
    workersDir: paths.workersDir,
    jobsDir: paths.jobsDir,
    triggersDir: paths.triggersDir,
    inboundMail: stateful.inboundMail,
    webDistDir: paths.webDistDir,
    firewall: { webAclArn: edge.firewall.webAcl.attrArn, integrationUrl: edge.firewall.integrationUrl },
    crossRegionReferences: true,
  });

  Tags.of(app).add('project', 'portal-proveedores');
  Tags.of(app).add('stage', config.stage);
  if (new URL(config.webOrigin).hostname.endsWith('example.com')) {
    Annotations.of(stateful).addWarningV2(
      'portal:placeholder-web-origin',
      `webOrigin ${config.webOrigin} is a placeholder: deploy with -c webOrigin=https://<site> so CORS admits the real site.`,
    );
  }
  if (emailDomain(config.emailSender.address) === EXAMPLE_MAIL_DOMAIN) {
    Annotations.of(stateful).addWarningV2(
      'portal:placeholder-email-sender',
      `emailSender ${config.emailSender.address} is a placeholder: deploy with -c emailSender='{"address":"no-responder@<your domain>"}' and verify that domain in SES (docs/deploying.md, "E-mail (SES)").`,
    );
  }
  if (Object.keys(config.sapCompanyCodes).length === 0 || new URL(config.sapBaseUrl).hostname.endsWith('example.com')) {
    Annotations.of(stateless).addWarningV2(
      'portal:sap-placeholder',
      `SAP is not configured: deploy with -c sapBaseUrl=https://<s4hana> -c sapCompanyCodes='{"<ruc>":"<company code>"}' or every MIRO posting fails.`,
    );
  }
  const sso = config.corporateSso;
  if (!sso) {
    Annotations.of(stateful).addWarningV2(
      'portal:no-corporate-sso',
      `Stage ${config.stage} has no corporateSso: staff (managers, administrators) cannot sign in. See docs/deploying.md, "Corporate SSO".`,
    );
  } else if (JSON.stringify(sso).includes(PLACEHOLDER_ID)) {
    Annotations.of(stateful).addWarningV2(
      'portal:placeholder-corporate-sso',
      `corporateSso of stage ${config.stage} names the example tenant: deploy with -c corporateSso='{...}' (docs/deploying.md, "Corporate SSO") or -c corporateSso=none, or CloudFormation cannot create the identity provider.`,
    );
  }
  if (options.nag ?? true) Validations.of(app).addPlugins(new AwsSolutionsChecks(app));

  return { app, config, stateful, stateless, edge };
}
