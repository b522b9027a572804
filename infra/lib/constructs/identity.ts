import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { RUNTIME_ENV, USER_ATTRIBUTES } from '@portal/shared';
import { PortalFunction } from './portal-function.js';

export interface IdentityProps {
  readonly stage: string;
  readonly retain: boolean;
  readonly adminGroupName: string;
  /** Absolute path of functions/src/triggers/pre-token-generation.ts. */
  readonly preTokenGenerationEntry: string;
}

/** `custom:taxId` -> `taxId`: CDK wants the attribute name without Cognito's prefix. */
function customName(attribute: string): string {
  return attribute.replace(/^custom:/, '');
}

/**
 * The user pool (suppliers sign in with e-mail and password; corporate SSO arrives with its own issue),
 * the web app client and the PreTokenGeneration trigger that adds `level` and `taxId`.
 */
export class Identity extends Construct {
  readonly userPool: cognito.UserPool;
  readonly webClient: cognito.UserPoolClient;
  readonly preTokenGeneration: PortalFunction;

  constructor(scope: Construct, id: string, props: IdentityProps) {
    super(scope, id);

    this.userPool = new cognito.UserPool(this, 'UserPool', {
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
      deletionProtection: props.retain,
      removalPolicy: props.retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    Validations.of(this.userPool).acknowledge(
      {
        id: 'AwsSolutions-COG2',
        reason:
          'Suppliers sign in with e-mail and password (spec §1); TOTP MFA is offered, not required. Staff use corporate SSO, whose IdP enforces MFA.',
      },
      {
        id: 'AwsSolutions-COG3',
        reason:
          'Threat protection (advanced security) needs the Plus feature plan; its adoption is decided with the production hardening.',
      },
      {
        id: 'AwsSolutions-COG8',
        reason:
          'The Plus feature plan is only needed for threat protection (see COG3), decided with the production hardening.',
      },
    );

    this.preTokenGeneration = new PortalFunction(this, 'PreTokenGeneration', {
      name: 'preTokenGeneration',
      entry: props.preTokenGenerationEntry,
      description: 'Cognito PreTokenGeneration: adds level and taxId to the ID token',
      environment: {
        [RUNTIME_ENV.stage]: props.stage,
        [RUNTIME_ENV.adminGroupName]: props.adminGroupName,
      },
      memorySize: 256,
      // Cognito waits five seconds for a trigger.
      timeout: Duration.seconds(5),
      retain: props.retain,
    });
    // V1 event: it shapes the ID token, which is the bearer token of the web app (see shared CLAIMS).
    this.userPool.addTrigger(cognito.UserPoolOperation.PRE_TOKEN_GENERATION, this.preTokenGeneration.function);

    this.webClient = this.userPool.addClient('WebClient', {
      generateSecret: false,
      // The web app (and cognito-local on the local stage) sign in with USER_PASSWORD_AUTH; CDK adds refresh.
      authFlows: { userPassword: true },
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
    });
  }
}
