import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { ROUTES, type RouteDef, type WebConfig } from '@portal/shared';
import { Api } from './constructs/api.js';
import type { Data } from './constructs/data.js';
import type { Identity } from './constructs/identity.js';
import type { PortalFunction } from './constructs/portal-function.js';
import type { Queues, QueueKey } from './constructs/queues.js';
import type { Sap } from './constructs/sap.js';
import { Schedules } from './constructs/schedules.js';
import type { Storage } from './constructs/storage.js';
import type { Sunat } from './constructs/sunat.js';
import { Web } from './constructs/web.js';
import { Workers } from './constructs/workers.js';
import type { StageConfig } from './stage-config.js';

export interface StatelessStackProps extends StackProps {
  readonly config: StageConfig;
  readonly data: Data;
  readonly storage: Storage;
  readonly queues: Queues;
  readonly identity: Identity;
  readonly sunat: Sunat;
  readonly sap: Sap;
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
}

/** Code and delivery: the API with its functions, and the web app. Safe to replace at any deploy. */
export class StatelessStack extends Stack {
  readonly api: Api;
  readonly web: Web;
  readonly workers: Workers;
  readonly schedules: Schedules;

  constructor(scope: Construct, id: string, props: StatelessStackProps) {
    super(scope, id, props);
    const { config, data, storage, queues, identity } = props;
    const bind = (fn: PortalFunction) => {
      data.bindTable(fn, 'rw');
      storage.bindDocuments(fn);
      for (const key of Object.keys(queues.byKey) as QueueKey[]) queues.bindSend(fn, key);
    };

    this.web = new Web(this, 'Web', { retain: config.retain });

    this.api = new Api(this, 'Api', {
      stage: config.stage,
      retain: config.retain,
      routes: props.routes ?? ROUTES,
      handlersDir: props.handlersDir,
      userPool: identity.userPool,
      webClient: identity.webClient,
      webOrigins: [config.webOrigin, this.web.origin],
      adminGroupName: config.adminGroupName,
      bind,
    });

    this.workers = new Workers(this, 'Workers', {
      stage: config.stage,
      retain: config.retain,
      queues,
      workersDir: props.workersDir,
      adminGroupName: config.adminGroupName,
      bind,
    });
    // Only the SUNAT worker talks to SUNAT and reads its credentials.
    const sunatWorker = this.workers.functions.get('sunatValidation');
    if (sunatWorker) props.sunat.bind(sunatWorker);
    // Only the MIRO worker and the payment sync talk to SAP.
    const miroWorker = this.workers.functions.get('miroRequests');
    if (miroWorker) props.sap.bind(miroWorker);
    this.schedules = new Schedules(this, 'Schedules', {
      stage: config.stage,
      retain: config.retain,
      jobsDir: props.jobsDir,
      bind: (fn, key) => {
        bind(fn);
        if (key === 'paymentSync') props.sap.bind(fn);
      },
    });

    const webConfig = {
      stage: config.stage,
      apiUrl: this.api.url,
      region: this.region,
      userPoolId: identity.userPool.userPoolId,
      userPoolClientId: identity.webClient.userPoolClientId,
      cognitoEndpoint: null,
      // Corporate SSO through the hosted UI, back to the stage's webOrigin; null when the stage has no provider.
      oauth: identity.webOAuth,
      chat: null,
    } satisfies WebConfig;
    this.web.publish({ distDir: props.webDistDir, config: webConfig });

    new CfnOutput(this, 'ApiUrl', { value: this.api.url });
    new CfnOutput(this, 'WebUrl', { value: this.web.origin });
    new CfnOutput(this, 'UserPoolId', { value: identity.userPool.userPoolId });
    new CfnOutput(this, 'UserPoolClientId', { value: identity.webClient.userPoolClientId });
  }
}
