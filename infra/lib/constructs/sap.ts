import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { SAP_ENV } from '@portal/shared';
import type { PortalFunction } from './portal-function.js';

export interface SapProps {
  readonly retain: boolean;
  /** S/4HANA's base URL; the OData services hang below it. */
  readonly baseUrl: string;
  /** Company code that books each company of the group: `{ruc: companyCode}`. */
  readonly companyCodes: Readonly<Record<string, string>>;
}

/**
 * Access to S/4HANA's OData services (supplier invoices, payment runs): the base URL, the company
 * codes of the group, and the secret holding the portal's technical user — `{"type":"basic",
 * "username","password"}` or `{"type":"oauth","tokenUrl","clientId","clientSecret","scope"?}` —
 * that an operator puts in after the first deploy.
 */
export class Sap extends Construct {
  readonly credentials: secretsmanager.Secret;
  private readonly props: SapProps;

  constructor(scope: Construct, id: string, props: SapProps) {
    super(scope, id);
    this.props = props;
    this.credentials = new secretsmanager.Secret(this, 'Credentials', {
      description: 'Credenciales del usuario técnico del portal en S/4HANA (JSON: basic u oauth)',
      removalPolicy: props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    Validations.of(this.credentials).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'The S/4HANA technical user belongs to the SAP basis team, who change its password in SAP and then in this secret; a Lambda cannot rotate it.',
    });
  }

  /** Grants reading the credentials and tells the function the secret, the endpoint and the company codes. */
  bind(fn: PortalFunction): void {
    this.credentials.grantRead(fn.role);
    fn.function.addEnvironment(SAP_ENV.credentialsSecretArn, this.credentials.secretArn);
    fn.function.addEnvironment(SAP_ENV.baseUrl, this.props.baseUrl);
    fn.function.addEnvironment(SAP_ENV.companyCodes, JSON.stringify(this.props.companyCodes));
  }
}
