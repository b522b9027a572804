import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { Data } from './constructs/data.js';
import { Email } from './constructs/email.js';
import { Identity } from './constructs/identity.js';
import { InboundMail } from './constructs/inbound-mail.js';
import { setLogRetention } from './constructs/portal-function.js';
import { Queues } from './constructs/queues.js';
import { Sap } from './constructs/sap.js';
import { Storage } from './constructs/storage.js';
import { Sunat } from './constructs/sunat.js';
import { stageNames } from './naming.js';
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
  readonly email: Email;
  readonly inboundMail: InboundMail;

  constructor(scope: Construct, id: string, props: StatefulStackProps) {
    super(scope, id, props);
    const { config } = props;
    setLogRetention(this, config.logRetentionDays);

    this.data = new Data(this, 'Data', { retain: config.retain, retentionYears: config.retentionYears });
    this.storage = new Storage(this, 'Storage', {
      retain: config.retain,
      webOrigin: config.webOrigin,
      retentionYears: config.retentionYears,
    });
    this.queues = new Queues(this, 'Queues', { retain: config.retain });
    this.inboundMail = new InboundMail(this, 'InboundMail', {
      retain: config.retain,
      accessLogs: this.storage.accessLogs,
      domain: config.intakeMail?.domain ?? null,
    });
    this.sap = new Sap(this, 'Sap', {
      retain: config.retain,
      baseUrl: config.sapBaseUrl,
      companyCodes: config.sapCompanyCodes,
    });
    this.email = new Email(this, 'Email', {
      sender: config.emailSender,
      configurationSetName: stageNames(config.stage).emailConfigurationSet,
    });
    this.identity = new Identity(this, 'Identity', {
      stage: config.stage,
      retain: config.retain,
      adminGroupName: config.adminGroupName,
      preTokenGenerationEntry: props.preTokenGenerationEntry,
      corporateSso: config.corporateSso,
      domainPrefix: config.domainPrefix,
      data: this.data,
      redirects: ssoRedirects(config),
      threatProtection: config.threatProtection,
      email: this.email,
      cognitoEmail: config.cognitoEmail,
    });
    this.sunat = new Sunat(this, 'Sunat', {
      retain: config.retain,
      tokenUrl: config.sunatTokenUrl,
      apiUrl: config.sunatApiUrl,
    });

    // What an operator needs after a deploy (docs/deploying.md): the secrets to fill in and the DNS records of SES,
    // and the table a data migration runs on (`npm run migrate:lists`, ADR 0042).
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    new CfnOutput(this, 'SunatCredentialsSecretArn', { value: this.sunat.credentials.secretArn });
    new CfnOutput(this, 'SapCredentialsSecretArn', { value: this.sap.credentials.secretArn });
    new CfnOutput(this, 'EmailDomain', {
      value: this.email.domain,
      description: 'SES domain identity of the sender; verified once the three DKIM records resolve',
    });
    new CfnOutput(this, 'EmailConfigurationSet', { value: this.email.configurationSetName });
    const identity = this.email.identity;
    const dkim: [string, string][] = [
      [identity.dkimDnsTokenName1, identity.dkimDnsTokenValue1],
      [identity.dkimDnsTokenName2, identity.dkimDnsTokenValue2],
      [identity.dkimDnsTokenName3, identity.dkimDnsTokenValue3],
    ];
    dkim.forEach(([name, value], index) => {
      new CfnOutput(this, `EmailDkimRecord${index + 1}`, {
        value: `${name} CNAME ${value}`,
        description: config.emailSender.hostedZoneId
          ? 'Written into the hosted zone by this stack'
          : "Add this CNAME record to the sender domain's DNS",
      });
    });
  }
}
