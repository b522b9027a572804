import path from 'node:path';
import { CfnOutput, NestedStack, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { BUCKETS, contentSecurityPolicy, ROUTES, RUNTIME_ENV, type RouteDef, type WebConfig } from '@portal/shared';
import { bindUses } from './bind-uses.js';
import { Api } from './constructs/api.js';
import type { Data } from './constructs/data.js';
import type { Email } from './constructs/email.js';
import { Files } from './constructs/files.js';
import type { Identity } from './constructs/identity.js';
import { Observability } from './constructs/observability.js';
import type { InboundMail } from './constructs/inbound-mail.js';
import { MailReceiving } from './constructs/inbound-mail.js';
import { PortalFunction, setLogRetention, type BindUses } from './constructs/portal-function.js';
import type { Queues } from './constructs/queues.js';
import type { Sap } from './constructs/sap.js';
import { Schedules } from './constructs/schedules.js';
import type { Storage } from './constructs/storage.js';
import type { Sunat } from './constructs/sunat.js';
import { Web } from './constructs/web.js';
import { Workers } from './constructs/workers.js';
import { stageNames } from './naming.js';
import type { StageConfig } from './stage-config.js';

export interface StatelessStackProps extends StackProps {
  readonly config: StageConfig;
  readonly data: Data;
  readonly storage: Storage;
  readonly queues: Queues;
  readonly identity: Identity;
  readonly sunat: Sunat;
  readonly sap: Sap;
  /** The portal's SES sender (stateful stack), bound to the functions that send e-mail. */
  readonly email: Email;
  /** The received e-mails' bucket (stateful stack), with the intake domain. */
  readonly inboundMail: InboundMail;
  /** Absolute path of functions/src/triggers (SES's receipt function). */
  readonly triggersDir: string;
  /** Absolute path of functions/src/handlers. */
  readonly handlersDir: string;
  /** Absolute path of functions/src/workers. */
  readonly workersDir: string;
  /** Absolute path of functions/src/jobs. */
  readonly jobsDir: string;
  /** Absolute path of web/dist. */
  readonly webDistDir: string;
  /** @default the whole manifest */
  readonly routes?: readonly RouteDef[];
  /** The stage's AWS WAF web ACL (edge stack, us-east-1): its ARN and its JavaScript integration URL. */
  readonly firewall: { readonly webAclArn: string; readonly integrationUrl: string };
}

/** Code and delivery: the API with its functions, and the web app. Safe to replace at any deploy. */
export class StatelessStack extends Stack {
  readonly api: Api;
  readonly web: Web;
  /** The download links of documents: their own distribution, whose answers never run as a page. */
  readonly files: Files;
  /** The queue consumers and the scheduled jobs: a nested stack of their own (docs/adr/0048-stacks-by-area.md). */
  readonly background: NestedStack;
  readonly workers: Workers;
  readonly schedules: Schedules;
  readonly observability: Observability;

  constructor(scope: Construct, id: string, props: StatelessStackProps) {
    super(scope, id, props);
    const { config, data, storage, queues, identity } = props;
    setLogRetention(this, config.logRetentionDays);
    // Every function gets exactly what its declaration names (route, queue consumer or job): see bind-uses.ts.
    const bind: BindUses = (fn, uses) =>
      bindUses(fn, uses, {
        data,
        storage,
        files: this.files,
        queues,
        userPool: identity.userPool,
        webClient: identity.webClient,
        adminGroupName: config.adminGroupName,
        webOrigin: config.webOrigin,
        email: props.email,
        sap: props.sap,
        sunat: props.sunat,
        inboundMail: props.inboundMail,
      });

    const originVerifyToken = this.originVerifyToken(config.originVerifyGeneration);

    this.web = this.createWeb(props);

    this.files = new Files(this, 'Files', {
      documents: storage.documents,
      logs: this.web.logs,
      webAclArn: props.firewall.webAclArn,
    });

    this.api = new Api(this, 'Api', {
      stage: config.stage,
      retain: config.retain,
      routes: props.routes ?? ROUTES,
      handlersDir: props.handlersDir,
      userPool: identity.userPool,
      webClient: identity.webClient,
      apiTokenUrl: identity.apiTokenUrl,
      // The site calls the API on its own origin (CloudFront's /api); CORS is for the configured webOrigin only
      // (a custom domain is the same origin too; a developer's Vite server is not).
      webOrigins: [config.webOrigin],
      bind,
      originVerifyToken,
      throttle: config.apiThrottle,
    });
    this.web.routeApi({ apiEndpoint: this.api.httpApi.apiEndpoint, originVerifyToken });

    this.background = new NestedStack(this, 'Background', {
      description: `Portal de Proveedores (${config.stage}): consumidores de las colas y tareas programadas`,
    });
    this.workers = new Workers(this.background, 'Workers', {
      stage: config.stage,
      retain: config.retain,
      queues,
      workersDir: props.workersDir,
      bind,
    });
    this.schedules = new Schedules(this.background, 'Schedules', {
      stage: config.stage,
      retain: config.retain,
      jobsDir: props.jobsDir,
      bind,
    });

    const receiptFunction = this.receiveMail(props, bind);

    const functions = new Map<string, PortalFunction>([
      ...this.api.functions,
      ...[...this.workers.functions].map(([key, fn]): [string, PortalFunction] => [`${key}Worker`, fn]),
      ...[...this.schedules.functions].map(([key, fn]): [string, PortalFunction] => [`${key}Job`, fn]),
      ['preTokenGeneration', identity.preTokenGeneration],
      ...(receiptFunction ? [['sesReceipt', receiptFunction] as [string, PortalFunction]] : []),
    ]);
    this.observability = new Observability(this, 'Observability', {
      stage: config.stage,
      retain: config.retain,
      alarmEmails: config.alarmEmails,
      dashboardName: stageNames(config.stage).dashboard,
      httpApi: this.api.httpApi,
      apiStage: this.api.stage,
      functions,
      queues: queues.all,
      emailConfigurationSet: props.email.configurationSetName,
    });

    this.publishWeb(props);
    this.addOutputs(identity);
  }

  /**
   * The header value CloudFront adds to every API request it forwards; a request without it skipped the WAF.
   * A new generation is a new secret (new logical id): every property that reads it changes, so CloudFormation
   * updates CloudFront's header and the functions' value together.
   */
  private originVerifyToken(generation: number): string {
    const originVerify = new secretsmanager.Secret(
      this,
      generation === 1 ? 'OriginVerify' : `OriginVerify${generation}`,
      {
        description: 'Valor del encabezado x-origin-verify que CloudFront envía a la API',
        generateSecretString: { excludePunctuation: true, passwordLength: 48 },
      },
    );
    Validations.of(originVerify).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'A value shared by CloudFront and the functions, both set by this stack at deploy; it is rotated by raising originVerifyGeneration (docs/deploying.md), which replaces the secret and updates both in one deployment.',
    });
    return originVerify.secretValue.unsafeUnwrap();
  }

  /** The site's distribution, its content security policy naming what the page may connect to. */
  private createWeb(props: StatelessStackProps): Web {
    const { config, storage, identity } = props;
    return new Web(this, 'Web', {
      retain: config.retain,
      webAclArn: props.firewall.webAclArn,
      customDomain:
        config.domainName && config.certificateArn
          ? { domainName: config.domainName, certificateArn: config.certificateArn }
          : undefined,
      contentSecurityPolicy: contentSecurityPolicy({
        connect: [
          `https://cognito-idp.${this.region}.amazonaws.com`,
          ...(identity.hostedUiBaseUrl ? [identity.hostedUiBaseUrl] : []),
          `https://${storage.documents.bucketRegionalDomainName}`,
          // A developer's Vite server (webOrigin) talks to the stage's API from another origin.
        ],
        waf: true,
        chat: false,
      }),
    });
  }

  /** Invoices by e-mail: SES's receipt rule for the intake domain, when the stage receives e-mail. */
  private receiveMail(props: StatelessStackProps, bind: BindUses): PortalFunction | null {
    const { config } = props;
    const intakeDomain = props.inboundMail.domain;
    if (!intakeDomain) return null;
    const receiptFunction = new PortalFunction(this, 'SesReceipt', {
      name: 'ses-receipt',
      entry: path.join(props.triggersDir, 'ses-receipt.ts'),
      description: 'Recibe de SES cada correo a las direcciones de recepción y lo encola',
      environment: { [RUNTIME_ENV.stage]: config.stage },
      retain: config.retain,
    });
    bind(receiptFunction, { table: 'none', queues: ['inboundMail'] });
    receiptFunction.function.addEnvironment(BUCKETS.inboundMail.env, props.inboundMail.bucket.bucketName);
    new MailReceiving(this, 'MailReceiving', {
      inboundMail: props.inboundMail,
      domain: intakeDomain,
      ruleSetName: stageNames(config.stage).receiptRuleSet,
      receiptFunction,
    });
    new CfnOutput(this, 'IntakeMailDomain', {
      value: intakeDomain,
      description: `MX 10 inbound-smtp.${this.region}.amazonaws.com; then activate the rule set ${stageNames(config.stage).receiptRuleSet}`,
    });
    return receiptFunction;
  }

  /** The web app and its config.json: where the API, the user pool and the hosted UI are. */
  private publishWeb(props: StatelessStackProps): void {
    const { config, identity } = props;
    const webConfig = {
      stage: config.stage,
      // Same origin as the site: every call passes CloudFront and the WAF.
      apiUrl: `${this.web.origin}/api`,
      region: this.region,
      userPoolId: identity.userPool.userPoolId,
      userPoolClientId: identity.webClient.userPoolClientId,
      cognitoEndpoint: null,
      // Corporate SSO through the hosted UI, back to the stage's webOrigin; null when the stage has no provider.
      oauth: identity.webOAuth,
      // The staff's e-mail domains: the login sends them to the corporate button (none without corporate SSO).
      corporateEmailDomains: config.corporateSso?.emailDomains ?? [],
      chat: null,
      waf: { integrationUrl: props.firewall.integrationUrl },
      intakeMailDomain: props.inboundMail.domain,
    } satisfies WebConfig;
    this.web.publish({ distDir: props.webDistDir, config: webConfig });
  }

  private addOutputs(identity: Identity): void {
    new CfnOutput(this, 'ApiUrl', { value: `${this.web.origin}/api` });
    new CfnOutput(this, 'ApiGatewayUrl', {
      value: this.api.url,
      description: 'API Gateway stage; it refuses calls that do not come through CloudFront',
    });
    new CfnOutput(this, 'WebUrl', { value: this.web.origin });
    new CfnOutput(this, 'UserPoolId', { value: identity.userPool.userPoolId });
    new CfnOutput(this, 'UserPoolClientId', { value: identity.webClient.userPoolClientId });
  }
}
