import { RemovalPolicy, SecretValue, Validations } from 'aws-cdk-lib';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { SUNAT_ENV } from '@portal/shared';
import type { PortalFunction } from './portal-function.js';

export interface SunatProps {
  readonly retain: boolean;
  /** SUNAT's OAuth2 token host (api-seguridad). */
  readonly tokenUrl: string;
  /** SUNAT's API host (validarcomprobante). */
  readonly apiUrl: string;
}

/**
 * Access to SUNAT's comprobante-validation API: its endpoints and the secret holding each company's
 * API credentials, a JSON map `{ruc: {clientId, clientSecret}}` that an operator fills in after the
 * first deploy (the credentials are issued in SUNAT's extranet, "Menú SOL", per company).
 */
export class Sunat extends Construct {
  readonly credentials: secretsmanager.Secret;
  private readonly props: SunatProps;

  constructor(scope: Construct, id: string, props: SunatProps) {
    super(scope, id);
    this.props = props;
    this.credentials = new secretsmanager.Secret(this, 'Credentials', {
      description: 'Credenciales de la API de SUNAT por sociedad: {"<ruc>": {"clientId": "…", "clientSecret": "…"}}',
      // An empty map, not a secret: the real credentials are put in by hand and never pass through the template.
      secretStringValue: SecretValue.unsafePlainText('{}'),
      removalPolicy: props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    Validations.of(this.credentials).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'SUNAT issues these API credentials in its extranet; they cannot be rotated by a Lambda, only renewed there by a person.',
    });
  }

  /** Grants reading the credentials and tells the function the secret and the endpoints. */
  bind(fn: PortalFunction): void {
    this.credentials.grantRead(fn.role);
    fn.function.addEnvironment(SUNAT_ENV.credentialsSecretArn, this.credentials.secretArn);
    fn.function.addEnvironment(SUNAT_ENV.tokenUrl, this.props.tokenUrl);
    fn.function.addEnvironment(SUNAT_ENV.apiUrl, this.props.apiUrl);
  }
}
