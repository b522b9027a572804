import { Duration, RemovalPolicy, SecretValue, Stack, Validations } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import {
  API_CLIENT_SCOPES,
  API_CLIENT_SCOPE_LABELS,
  API_RESOURCE_SERVER,
  RUNTIME_ENV,
  USER_ATTRIBUTES,
  WEB_CLIENT_ATTRIBUTES,
  webClientWriteAttributes,
  type WebConfig,
} from '@portal/shared';
import type { StageConfig } from '../stage-config.js';
import type { CorporateSso } from '../stage-sso.js';
import type { Data } from './data.js';
import type { Email } from './email.js';
import { PortalFunction } from './portal-function.js';

export interface IdentityProps {
  readonly stage: string;
  readonly retain: boolean;
  readonly adminGroupName: string;
  /** Absolute path of functions/src/triggers/pre-token-generation.ts. */
  readonly preTokenGenerationEntry: string;
  /** The staff's corporate identity provider, or null for a stage without SSO. */
  readonly corporateSso: CorporateSso | null;
  /**
   * Prefix of the user pool's Cognito domain: the hosted UI of corporate SSO, and the OAuth2 token endpoint of the
   * suppliers' API clients (client credentials), so it exists on every stage.
   */
  readonly domainPrefix: string;
  /** The table: the trigger reads an API client's RUC from it when the client asks for a token. */
  readonly data: Data;
  /** Where the hosted UI may send the browser back after sign-in and after sign-out (the web app's origin). */
  readonly redirects: { readonly signIn: string; readonly signOut: string };
  /** Cognito threat protection of password sign-ins; OFF keeps the pool on the Essentials plan. */
  readonly threatProtection: StageConfig['threatProtection'];
  /** The portal's SES sender and configuration set; Cognito sends its codes through it when `cognitoEmail` is SES. */
  readonly email: Email;
  /** Who delivers Cognito's verification and reset codes (stage configuration, cognitoEmail). */
  readonly cognitoEmail: StageConfig['cognitoEmail'];
}

/** The feature plan and threat protection mode of each threatProtection setting. */
const THREAT_PROTECTION = {
  ENFORCED: {
    featurePlan: cognito.FeaturePlan.PLUS,
    standardThreatProtectionMode: cognito.StandardThreatProtectionMode.FULL_FUNCTION,
  },
  AUDIT: {
    featurePlan: cognito.FeaturePlan.PLUS,
    standardThreatProtectionMode: cognito.StandardThreatProtectionMode.AUDIT_ONLY,
  },
  OFF: {
    featurePlan: cognito.FeaturePlan.ESSENTIALS,
    standardThreatProtectionMode: cognito.StandardThreatProtectionMode.NO_ENFORCEMENT,
  },
} as const;

/** What the web app asks the hosted UI for: who the user is, nothing that could administer the user. */
export const WEB_OAUTH_SCOPES = ['openid', 'email', 'profile'] as const;

/** SAML claim names of the standard attributes, as Entra ID and AD FS send them. */
const SAML_CLAIMS = {
  email: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  givenName: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
  familyName: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
} as const;

/** `custom:taxId` -> `taxId`: CDK wants the attribute name without Cognito's prefix. */
function customName(attribute: string): string {
  return attribute.replace(/^custom:/, '');
}

/** CDK's names of the standard attributes the web client's permissions name (shared WEB_CLIENT_ATTRIBUTES). */
const STANDARD_ATTRIBUTE_MASK: Record<string, keyof cognito.StandardAttributesMask> = {
  email: 'email',
  email_verified: 'emailVerified',
  given_name: 'givenName',
  family_name: 'familyName',
};

/** ClientAttributes from the pool's attribute names (`email`, `custom:taxId`, …). */
function clientAttributes(names: readonly string[]): cognito.ClientAttributes {
  const standard: { -readonly [K in keyof cognito.StandardAttributesMask]: boolean } = {};
  const custom: string[] = [];
  for (const name of names) {
    if (name.startsWith('custom:')) custom.push(customName(name));
    else {
      const key = STANDARD_ATTRIBUTE_MASK[name];
      if (!key) throw new Error(`Atributo estándar sin correspondencia en CDK: ${name}`);
      standard[key] = true;
    }
  }
  return new cognito.ClientAttributes().withStandardAttributes(standard).withCustomAttributes(...custom);
}

/**
 * The user pool (suppliers sign in with e-mail and password), the staff's corporate identity provider behind
 * the hosted UI, the web app client and the PreTokenGeneration trigger that adds `level` and `taxId`.
 */
export class Identity extends Construct {
  readonly userPool: cognito.UserPool;
  readonly webClient: cognito.UserPoolClient;
  readonly preTokenGeneration: PortalFunction;
  /** The pool's Cognito domain: the hosted UI (with SSO) and the API clients' token endpoint. */
  readonly domain: cognito.UserPoolDomain;
  /** The OAuth2 token endpoint API clients ask for their tokens (client credentials). */
  readonly apiTokenUrl: string;
  /** The API's resource server (`portal`) and its scopes, which the API clients' app clients are given. */
  readonly resourceServer: cognito.UserPoolResourceServer;
  /** The corporate identity provider; undefined without corporate SSO. */
  readonly provider?: cognito.UserPoolIdentityProviderOidc | cognito.UserPoolIdentityProviderSaml;
  /** https://{prefix}.auth.{region}.amazoncognito.com, or null without corporate SSO. */
  readonly hostedUiBaseUrl: string | null;
  /** The provider's name in the pool (the hosted UI's `identity_provider` parameter), or null without SSO. */
  readonly providerName: string | null;
  /** The web app's `oauth` settings (config.json), or null without corporate SSO. */
  readonly webOAuth: WebConfig['oauth'];

  constructor(scope: Construct, id: string, props: IdentityProps) {
    super(scope, id);
    this.userPool = this.createUserPool(props);
    this.preTokenGeneration = this.createPreTokenGeneration(props);

    this.resourceServer = this.userPool.addResourceServer('ApiResourceServer', {
      identifier: API_RESOURCE_SERVER,
      userPoolResourceServerName: 'API del Portal de Proveedores',
      scopes: API_CLIENT_SCOPES.map(
        (scope) =>
          new cognito.ResourceServerScope({ scopeName: scope, scopeDescription: API_CLIENT_SCOPE_LABELS[scope] }),
      ),
    });

    this.domain = this.userPool.addDomain('HostedUi', {
      cognitoDomain: { domainPrefix: props.domainPrefix },
      managedLoginVersion: cognito.ManagedLoginVersion.CLASSIC_HOSTED_UI,
    });
    this.apiTokenUrl = `https://${props.domainPrefix}.auth.${Stack.of(this).region}.amazoncognito.com/oauth2/token`;

    const sso = props.corporateSso;
    if (sso) {
      this.provider = this.createProvider(sso);
      // Literals rather than the resources' attributes: the stateless stack reads them without a cross-stack export.
      this.hostedUiBaseUrl = `https://${props.domainPrefix}.auth.${Stack.of(this).region}.amazoncognito.com`;
      this.providerName = sso.providerName;
      this.webOAuth = {
        baseUrl: this.hostedUiBaseUrl,
        providerName: this.providerName,
        redirectSignIn: props.redirects.signIn,
        redirectSignOut: props.redirects.signOut,
        scopes: [...WEB_OAUTH_SCOPES],
      };
    } else {
      this.hostedUiBaseUrl = null;
      this.providerName = null;
      this.webOAuth = null;
    }

    this.webClient = this.createWebClient(props, sso);
    if (this.provider) this.webClient.node.addDependency(this.provider);
  }

  /** The pool: e-mail sign-in, its password policy and codes' texts, and its threat protection. */
  private createUserPool(props: IdentityProps): cognito.UserPool {
    const { email } = props;

    const userPool = new cognito.UserPool(this, 'UserPool', {
      ...THREAT_PROTECTION[props.threatProtection],
      // Cognito's own sender allows a few dozen e-mails a day; through SES the codes come from the portal's sender.
      email:
        props.cognitoEmail === 'SES'
          ? cognito.UserPoolEmail.withSES({
              fromEmail: email.sender.address,
              fromName: email.sender.name,
              sesVerifiedDomain: email.domain,
              configurationSetName: email.configurationSetName,
            })
          : cognito.UserPoolEmail.withCognito(),
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      standardAttributes: { email: { required: true, mutable: true } },
      customAttributes: {
        [customName(USER_ATTRIBUTES.taxId)]: new cognito.StringAttribute({ mutable: true, maxLen: 2048 }),
        [customName(USER_ATTRIBUTES.ssoGroups)]: new cognito.StringAttribute({ mutable: true, maxLen: 2048 }),
        [customName(USER_ATTRIBUTES.emailNotifications)]: new cognito.StringAttribute({ mutable: true, maxLen: 8 }),
      },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      mfa: cognito.Mfa.OPTIONAL,
      mfaSecondFactor: { sms: false, otp: true },
      // Cognito sends this code template for e-mail verification and also for password reset (its "forgot
      // password" message has no template of its own), so the text fits both.
      userVerification: {
        emailStyle: cognito.VerificationEmailStyle.CODE,
        emailSubject: 'Portal de Proveedores: tu código de verificación',
        emailBody:
          '<p>Hola:</p><p>Tu código de verificación del Portal de Proveedores es <strong>{####}</strong>.</p>' +
          '<p>Úsalo para confirmar tu correo o para restablecer tu contraseña. Si no lo solicitaste, ignora este mensaje.</p>',
        smsMessage: 'Tu código del Portal de Proveedores es {####}',
      },
      // Only users created in the Cognito console get this e-mail: the portal invites suppliers itself
      // (AdminCreateUser with MessageAction SUPPRESS, then its own e-mail), and staff arrive through SSO.
      userInvitation: {
        emailSubject: 'Portal de Proveedores: tu cuenta de acceso',
        emailBody:
          '<p>Hola:</p><p>Se creó tu cuenta en el Portal de Proveedores.</p>' +
          '<p>Usuario: <strong>{username}</strong><br>Contraseña temporal: <strong>{####}</strong></p>' +
          '<p>Al ingresar por primera vez te pediremos cambiarla. La contraseña temporal vence en 3 días.</p>',
      },
      deletionProtection: props.retain,
      removalPolicy: props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    Validations.of(userPool).acknowledge({
      id: 'AwsSolutions-COG2',
      reason:
        'Suppliers sign in with e-mail and password (spec §1); TOTP MFA is offered, not required. Staff use corporate SSO, whose IdP enforces MFA.',
    });
    if (props.cognitoEmail === 'SES') {
      // Cognito checks the identity when it saves the pool's e-mail settings.
      userPool.node.addDependency(email.identity, email.configurationSet);
    }
    if (props.threatProtection === 'OFF') {
      Validations.of(userPool).acknowledge({
        id: 'AwsSolutions-COG8',
        reason:
          'This stage turns threat protection off (threatProtection OFF), the only reason for the Plus plan; prod enforces it.',
      });
    }
    if (props.threatProtection === 'ENFORCED') {
      // What "enforced" does, stated rather than left to Cognito's defaults: a password known to be leaked cannot
      // sign in or be set; a high-risk sign-in is blocked, a medium-risk one needs the user's MFA when it has one.
      new cognito.CfnUserPoolRiskConfigurationAttachment(this, 'RiskConfiguration', {
        userPoolId: userPool.userPoolId,
        clientId: 'ALL',
        compromisedCredentialsRiskConfiguration: { actions: { eventAction: 'BLOCK' } },
        accountTakeoverRiskConfiguration: {
          actions: {
            highAction: { eventAction: 'BLOCK', notify: false },
            mediumAction: { eventAction: 'MFA_IF_CONFIGURED', notify: false },
            lowAction: { eventAction: 'NO_ACTION', notify: false },
          },
        },
      });
    }
    return userPool;
  }

  /** The trigger that adds `level` and `taxId` to the tokens of users and API clients. */
  private createPreTokenGeneration(props: IdentityProps): PortalFunction {
    const trigger = new PortalFunction(this, 'PreTokenGeneration', {
      name: 'preTokenGeneration',
      entry: props.preTokenGenerationEntry,
      description: 'Cognito PreTokenGeneration: adds level and taxId to the tokens (users and API clients)',
      environment: {
        [RUNTIME_ENV.stage]: props.stage,
        [RUNTIME_ENV.adminGroupName]: props.adminGroupName,
      },
      memorySize: 256,
      // Cognito waits five seconds for a trigger.
      timeout: Duration.seconds(5),
      retain: props.retain,
    });
    // V3 event (Essentials plan or above, which every stage has: THREAT_PROTECTION): the ID token of a user, the
    // web app's bearer token (see shared CLAIMS), and the access token of an API client's client-credentials grant
    // (TokenGeneration_ClientCredentials), which gets its RUC from the table (docs/adr/0034-api-clients.md).
    this.userPool.addTrigger(
      cognito.UserPoolOperation.PRE_TOKEN_GENERATION_CONFIG,
      trigger.function,
      cognito.LambdaVersion.V3_0,
    );
    props.data.bindTable(trigger, 'read');
    return trigger;
  }

  /** The web app's public client: password sign-in, and with SSO the hosted UI's code flow. */
  private createWebClient(props: IdentityProps, sso: CorporateSso | null): cognito.UserPoolClient {
    return this.userPool.addClient('WebClient', {
      // A public client: the browser cannot keep a secret; the hosted UI's code flow is protected by PKCE.
      generateSecret: false,
      // Suppliers (and cognito-local on the local stage) sign in with USER_PASSWORD_AUTH; CDK adds refresh.
      authFlows: { userPassword: true },
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
      ...(sso
        ? {
            // Authorization code only (no implicit grant), and no aws.cognito.signin.user.admin scope: a token from
            // the hosted UI cannot call UpdateUserAttributes, so an SSO user cannot rewrite its own custom:groups.
            oAuth: {
              flows: { authorizationCodeGrant: true },
              scopes: [cognito.OAuthScope.OPENID, cognito.OAuthScope.EMAIL, cognito.OAuthScope.PROFILE],
              callbackUrls: [props.redirects.signIn],
              logoutUrls: [props.redirects.signOut],
            },
            supportedIdentityProviders: [
              cognito.UserPoolClientIdentityProvider.COGNITO,
              cognito.UserPoolClientIdentityProvider.custom(sso.providerName),
            ],
          }
        : { disableOAuth: true, supportedIdentityProviders: [cognito.UserPoolClientIdentityProvider.COGNITO] }),
      readAttributes: clientAttributes(WEB_CLIENT_ATTRIBUTES.read),
      // What a signed-in user may change about itself: its name and e-mail. custom:taxId and
      // custom:emailNotifications are set by the portal's administrators through the admin API only.
      // custom:groups is writable only with SSO, because Cognito writes the IdP's mapped attributes at each federated
      // sign-in with the app client's write permissions (without it the sign-in fails). It grants nothing by itself:
      // the trigger gives staff levels only to users carrying the `identities` attribute, which no client can write,
      // and SSO users' tokens lack the scope UpdateUserAttributes needs.
      // (One definition, shared WEB_CLIENT_ATTRIBUTES: the local stage's Cognito proxy enforces the same.)
      writeAttributes: clientAttributes(webClientWriteAttributes(Boolean(sso))),
    });
  }

  /** The federated provider, mapping e-mail, names and the groups claim (read by the trigger as custom:groups). */
  private createProvider(
    sso: CorporateSso,
  ): cognito.UserPoolIdentityProviderOidc | cognito.UserPoolIdentityProviderSaml {
    // The key is the pool attribute's full name: CDK passes custom mappings through as given.
    const custom = { [USER_ATTRIBUTES.ssoGroups]: cognito.ProviderAttribute.other(sso.groupsClaim) };
    if (sso.type === 'OIDC') {
      return new cognito.UserPoolIdentityProviderOidc(this, 'CorporateOidc', {
        userPool: this.userPool,
        name: sso.providerName,
        issuerUrl: sso.issuerUrl,
        clientId: sso.clientId,
        // A dynamic reference ({{resolve:secretsmanager:...}}): CloudFormation reads the secret at deploy time,
        // so it appears neither in the configuration nor in the template.
        clientSecret: SecretValue.secretsManager(sso.clientSecretName).unsafeUnwrap(),
        scopes: [...sso.scopes],
        attributeRequestMethod: cognito.OidcAttributeRequestMethod.GET,
        attributeMapping: {
          email: cognito.ProviderAttribute.other('email'),
          givenName: cognito.ProviderAttribute.other('given_name'),
          familyName: cognito.ProviderAttribute.other('family_name'),
          custom,
        },
      });
    }
    return new cognito.UserPoolIdentityProviderSaml(this, 'CorporateSaml', {
      userPool: this.userPool,
      name: sso.providerName,
      metadata: cognito.UserPoolIdentityProviderSamlMetadata.url(sso.metadataUrl),
      attributeMapping: {
        email: cognito.ProviderAttribute.other(SAML_CLAIMS.email),
        givenName: cognito.ProviderAttribute.other(SAML_CLAIMS.givenName),
        familyName: cognito.ProviderAttribute.other(SAML_CLAIMS.familyName),
        custom,
      },
    });
  }
}
