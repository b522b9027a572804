import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { Data } from './constructs/data.js';
import { Identity } from './constructs/identity.js';
import { Queues } from './constructs/queues.js';
import { Sap } from './constructs/sap.js';
import { Storage } from './constructs/storage.js';
import { Sunat } from './constructs/sunat.js';
import { ssoRedirects, type StageConfig } from './stage-config.js';

export interface StatefulStackProps extends StackProps {
  readonly config: StageConfig;
  /** Absolute path of the PreTokenGeneration trigger module. */
  readonly preTokenGenerationEntry: string;
}

/** What holds data and identities: deployed rarely, retained in prod, never replaced by a code change. */
export class StatefulStack extends Stack {
  readonly data: Data;
  readonly storage: Storage;
  readonly queues: Queues;
  readonly identity: Identity;
  readonly sap: Sap;
  readonly sunat: Sunat;

  constructor(scope: Construct, id: string, props: StatefulStackProps) {
    super(scope, id, props);
    const { config } = props;

    this.data = new Data(this, 'Data', { retain: config.retain });
    this.storage = new Storage(this, 'Storage', { retain: config.retain, webOrigin: config.webOrigin });
    this.queues = new Queues(this, 'Queues', { retain: config.retain });
    this.sap = new Sap(this, 'Sap', {
      retain: config.retain,
      baseUrl: config.sapBaseUrl,
      companyCodes: config.sapCompanyCodes,
    });
    this.identity = new Identity(this, 'Identity', {
      stage: config.stage,
      retain: config.retain,
      adminGroupName: config.adminGroupName,
      preTokenGenerationEntry: props.preTokenGenerationEntry,
      corporateSso: config.corporateSso,
      domainPrefix: config.domainPrefix,
      redirects: ssoRedirects(config),
    });
    this.sunat = new Sunat(this, 'Sunat', {
      retain: config.retain,
      tokenUrl: config.sunatTokenUrl,
      apiUrl: config.sunatApiUrl,
    });
  }
}
