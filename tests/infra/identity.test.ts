import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wholeStack } from './whole-stack.js';
import { RUNTIME_ENV, USER_ATTRIBUTES, WebConfig } from '@portal/shared';
import { buildPortalApp, type PortalApp } from '../../infra/lib/app.js';
import { resolveStageConfig } from '../../infra/lib/stage-config.js';

type Resource = { Type: string; Properties?: Record<string, unknown>; DependsOn?: string[] };

const WEB_ORIGIN = 'https://proveedores.acme.pe';
/** The stage's region, given on the command line (-c region=...). */
const REGION = 'sa-east-1';
const DOMAIN_PREFIX = 'acme-proveedores-qa';
const ISSUER = 'https://login.microsoftonline.com/6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b/v2.0';
const SECRET_NAME = 'portal/qa/entra-client-secret';

const OIDC_SSO = {
  type: 'OIDC',
  issuerUrl: ISSUER,
  clientId: '2b7e1c4d-0a9f-4e3b-8c6d-5f4a3b2c1d0e',
  clientSecretName: SECRET_NAME,
};

/**
 * Synthesizes the app of a stage in a temporary directory, with cdk-nag (an unacknowledged finding throws).
 * Lambda bundling is skipped: these tests read the identity resources, not the function code.
 */
function synthesize(context: Record<string, unknown>): { portal: PortalApp; outdir: string } {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-identity-'));
  const portal = buildPortalApp({ context: { 'aws:cdk:bundling-stacks': [], ...context }, outdir });
  portal.app.synth();
  return { portal, outdir };
}

/**
 * The config.json the stateless stack deploys with the site. CDK leaves a marker where a value is only known at
 * deploy time; each is rendered here as CloudFormation would fill it (`{Ref: X}` as `${X}`, like Fn::Sub).
 */
function publishedConfig(portal: PortalApp, outdir: string): Record<string, unknown> {
  const deployments = Object.values(
    wholeStack(portal.stateless).findResources('Custom::CDKBucketDeployment', {
      Properties: { DistributionPaths: ['/config.json'] },
    }),
  ) as Resource[];
  expect(deployments).toHaveLength(1);
  const props = deployments[0]!.Properties!;
  const [key] = props.SourceObjectKeys as string[];
  const [markers] = (props.SourceMarkers ?? [{}]) as Record<string, unknown>[];
  let text = fs.readFileSync(path.join(outdir, `asset.${key!.replace(/\.zip$/, '')}`, 'config.json'), 'utf8');
  for (const [marker, value] of Object.entries(markers ?? {})) {
    const ref = (value as { Ref?: unknown }).Ref;
    text = text.replaceAll(marker, typeof ref === 'string' ? `\${${ref}}` : '<deploy-time value>');
  }
  return JSON.parse(text) as Record<string, unknown>;
}

function onlyResource(template: Template, type: string): [string, Resource] {
  const resources = Object.entries(template.findResources(type)) as [string, Resource][];
  expect(resources, type).toHaveLength(1);
  return resources[0]!;
}

describe('corporate SSO (OIDC) on an AWS stage', () => {
  let outdir: string;
  let portal: PortalApp;
  let stateful: Template;

  beforeAll(() => {
    ({ portal, outdir } = synthesize({
      stage: 'dev',
      region: REGION,
      webOrigin: WEB_ORIGIN,
      domainPrefix: DOMAIN_PREFIX,
      adminGroupName: 'sg-portal-admins',
      corporateSso: { ...OIDC_SSO, emailDomains: ['acme.pe', 'corp.acme.pe'] },
    }));
    stateful = Template.fromStack(portal.stateful);
  });

  afterAll(() => {
    if (outdir) fs.rmSync(outdir, { recursive: true, force: true });
  });

  it('gives the user pool a hosted-UI domain with the configured prefix', () => {
    const [poolId] = onlyResource(stateful, 'AWS::Cognito::UserPool');
    stateful.hasResourceProperties('AWS::Cognito::UserPoolDomain', {
      Domain: DOMAIN_PREFIX,
      UserPoolId: { Ref: poolId },
    });
    expect(portal.stateful.identity.hostedUiBaseUrl).toBe(`https://${DOMAIN_PREFIX}.auth.${REGION}.amazoncognito.com`);
  });

  it('federates the corporate OIDC provider, mapping e-mail, names and the groups claim to custom:groups', () => {
    const [, provider] = onlyResource(stateful, 'AWS::Cognito::UserPoolIdentityProvider');
    expect(provider.Properties).toMatchObject({
      ProviderName: 'Corporativo',
      ProviderType: 'OIDC',
      ProviderDetails: {
        oidc_issuer: ISSUER,
        client_id: OIDC_SSO.clientId,
        authorize_scopes: 'openid email profile',
        attributes_request_method: 'GET',
      },
      AttributeMapping: {
        email: 'email',
        given_name: 'given_name',
        family_name: 'family_name',
        [USER_ATTRIBUTES.ssoGroups]: 'groups',
      },
    });
    expect(portal.stateful.identity.providerName).toBe('Corporativo');
  });

  it('reads the OIDC client secret from Secrets Manager at deploy time, never as a literal', () => {
    const [, provider] = onlyResource(stateful, 'AWS::Cognito::UserPoolIdentityProvider');
    const details = provider.Properties!.ProviderDetails as Record<string, unknown>;
    expect(details.client_secret).toBe(`{{resolve:secretsmanager:${SECRET_NAME}:SecretString:::}}`);
  });

  it('lets the web client use the code grant only, back to the web origin, with COGNITO and the provider', () => {
    const [providerId] = onlyResource(stateful, 'AWS::Cognito::UserPoolIdentityProvider');
    const [, client] = onlyResource(stateful, 'AWS::Cognito::UserPoolClient');
    expect(client.Properties).toMatchObject({
      GenerateSecret: false,
      AllowedOAuthFlows: ['code'],
      AllowedOAuthFlowsUserPoolClient: true,
      CallbackURLs: [`${WEB_ORIGIN}/login`],
      LogoutURLs: [`${WEB_ORIGIN}/`],
    });
    // No aws.cognito.signin.user.admin: a hosted-UI token cannot call UpdateUserAttributes.
    expect([...(client.Properties!.AllowedOAuthScopes as string[])].sort()).toEqual(['email', 'openid', 'profile']);
    expect(client.Properties!.SupportedIdentityProviders).toEqual(expect.arrayContaining(['COGNITO', 'Corporativo']));
    // The provider must exist before the client names it.
    expect(client.DependsOn).toContain(providerId);
  });

  it('keeps the tenant and notification attributes out of the web client’s reach', () => {
    const [, client] = onlyResource(stateful, 'AWS::Cognito::UserPoolClient');
    const writable = client.Properties!.WriteAttributes as string[];
    expect(writable).not.toContain(USER_ATTRIBUTES.taxId);
    expect(writable).not.toContain(USER_ATTRIBUTES.emailNotifications);
    // custom:groups is the one custom attribute: Cognito writes the IdP's mapped groups at each federated sign-in
    // through the client's write permissions.
    expect([...writable].sort()).toEqual([USER_ATTRIBUTES.ssoGroups, 'email', 'family_name', 'given_name'].sort());
  });

  it('wires the PreTokenGeneration trigger with the stage’s admin group', () => {
    const [triggerId, trigger] = onlyResource(stateful, 'AWS::Lambda::Function');
    stateful.hasResourceProperties('AWS::Cognito::UserPool', {
      LambdaConfig: {
        PreTokenGenerationConfig: { LambdaArn: { 'Fn::GetAtt': [triggerId, 'Arn'] }, LambdaVersion: 'V3_0' },
      },
    });
    expect(trigger.Properties).toMatchObject({
      Environment: { Variables: { [RUNTIME_ENV.adminGroupName]: 'sg-portal-admins' } },
    });
  });

  it('writes the verification (also used for password reset) and invitation e-mails in Spanish', () => {
    stateful.hasResourceProperties('AWS::Cognito::UserPool', {
      VerificationMessageTemplate: Match.objectLike({
        DefaultEmailOption: 'CONFIRM_WITH_CODE',
        EmailSubject: Match.stringLikeRegexp('código de verificación'),
        EmailMessage: Match.stringLikeRegexp('\\{####\\}.*restablecer tu contraseña'),
      }),
      AdminCreateUserConfig: Match.objectLike({
        InviteMessageTemplate: Match.objectLike({
          EmailSubject: Match.stringLikeRegexp('Portal de Proveedores'),
          EmailMessage: Match.stringLikeRegexp('\\{username\\}.*Contraseña temporal.*\\{####\\}'),
        }),
      }),
    });
  });

  it('publishes the hosted UI, the provider and the redirects in the web app’s config.json', () => {
    const { oauth } = publishedConfig(portal, outdir);
    expect(oauth).toEqual({
      baseUrl: `https://${DOMAIN_PREFIX}.auth.${REGION}.amazoncognito.com`,
      providerName: 'Corporativo',
      redirectSignIn: `${WEB_ORIGIN}/login`,
      redirectSignOut: `${WEB_ORIGIN}/`,
      scopes: ['openid', 'email', 'profile'],
    });
    expect(WebConfig.shape.oauth.safeParse(oauth).success).toBe(true);
  });

  it('publishes the staff’s e-mail domains, so that the login sends them to the corporate button', () => {
    const config = publishedConfig(portal, outdir);
    expect(config.corporateEmailDomains).toEqual(['acme.pe', 'corp.acme.pe']);
    expect(WebConfig.shape.corporateEmailDomains.safeParse(config.corporateEmailDomains).success).toBe(true);
  });
});

describe('corporate SSO (SAML) on an AWS stage', () => {
  let outdir: string;
  let stateful: Template;

  beforeAll(() => {
    let portal: PortalApp;
    ({ portal, outdir } = synthesize({
      stage: 'dev',
      webOrigin: WEB_ORIGIN,
      corporateSso: {
        type: 'SAML',
        providerName: 'EntraSaml',
        metadataUrl: 'https://login.microsoftonline.com/6f1c2a9e/federationmetadata/2007-06/federationmetadata.xml',
      },
      threatProtection: 'OFF',
    }));
    stateful = Template.fromStack(portal.stateful);
  });

  afterAll(() => {
    if (outdir) fs.rmSync(outdir, { recursive: true, force: true });
  });

  it('federates the SAML provider by its metadata URL, with the same attributes and the default domain prefix', () => {
    stateful.hasResourceProperties('AWS::Cognito::UserPoolIdentityProvider', {
      ProviderName: 'EntraSaml',
      ProviderType: 'SAML',
      ProviderDetails: Match.objectLike({
        MetadataURL: 'https://login.microsoftonline.com/6f1c2a9e/federationmetadata/2007-06/federationmetadata.xml',
      }),
      AttributeMapping: {
        email: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
        given_name: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
        family_name: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
        [USER_ATTRIBUTES.ssoGroups]: 'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups',
      },
    });
    stateful.hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: 'portal-proveedores-dev' });
    stateful.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      SupportedIdentityProviders: ['COGNITO', 'EntraSaml'],
    });
  });

  it('stays on the Essentials plan when the stage turns threat protection off (cdk-nag acknowledged)', () => {
    const [, pool] = onlyResource(stateful, 'AWS::Cognito::UserPool');
    expect(pool.Properties).toMatchObject({
      UserPoolTier: 'ESSENTIALS',
      UserPoolAddOns: { AdvancedSecurityMode: 'OFF' },
    });
    stateful.resourceCountIs('AWS::Cognito::UserPoolRiskConfigurationAttachment', 0);
  });
});

describe('an AWS stage without corporate SSO', () => {
  let outdir: string;
  let portal: PortalApp;
  let stateful: Template;

  beforeAll(() => {
    ({ portal, outdir } = synthesize({ stage: 'dev', corporateSso: 'none' }));
    stateful = Template.fromStack(portal.stateful);
  });

  afterAll(() => {
    if (outdir) fs.rmSync(outdir, { recursive: true, force: true });
  });

  it('has no federated provider and no OAuth on the web client; its domain serves the API clients’ tokens', () => {
    stateful.resourceCountIs('AWS::Cognito::UserPoolIdentityProvider', 0);
    // The pool's domain exists on every stage: the token endpoint of the suppliers' API clients (ADR 0034).
    stateful.resourceCountIs('AWS::Cognito::UserPoolDomain', 1);
    expect(portal.stateful.identity.apiTokenUrl).toMatch(/^https:\/\/.+\.auth\..+\.amazoncognito\.com\/oauth2\/token$/);
    const [, server] = onlyResource(stateful, 'AWS::Cognito::UserPoolResourceServer');
    expect(server.Properties).toMatchObject({
      Identifier: 'portal',
      Scopes: [{ ScopeName: 'invoices.submit' }, { ScopeName: 'invoices.read' }],
    });
    const [, client] = onlyResource(stateful, 'AWS::Cognito::UserPoolClient');
    expect(client.Properties).toMatchObject({ SupportedIdentityProviders: ['COGNITO'] });
    expect(client.Properties!.AllowedOAuthFlowsUserPoolClient).not.toBe(true);
    expect(client.Properties!.CallbackURLs).toBeUndefined();
    expect([...(client.Properties!.WriteAttributes as string[])].sort()).toEqual([
      'email',
      'family_name',
      'given_name',
    ]);
    expect(portal.stateful.identity.providerName).toBeNull();
    expect(portal.stateful.identity.hostedUiBaseUrl).toBeNull();
  });

  it('still wires the PreTokenGeneration trigger', () => {
    const [triggerId] = onlyResource(stateful, 'AWS::Lambda::Function');
    stateful.hasResourceProperties('AWS::Cognito::UserPool', {
      LambdaConfig: {
        PreTokenGenerationConfig: { LambdaArn: { 'Fn::GetAtt': [triggerId, 'Arn'] }, LambdaVersion: 'V3_0' },
      },
    });
  });

  it('publishes oauth null and no corporate e-mail domain in the web app’s config.json', () => {
    expect(publishedConfig(portal, outdir).oauth).toBeNull();
    expect(publishedConfig(portal, outdir).corporateEmailDomains).toEqual([]);
  });
});

describe('corporate SSO in the stage configuration', () => {
  const context = (values: Record<string, unknown>) => (key: string) => values[key];
  const resolve = (values: Record<string, unknown>) =>
    resolveStageConfig(context({ stage: 'dev', webOrigin: WEB_ORIGIN, ...values }));

  it('fills the defaults of an OIDC provider and derives the domain prefix from the stage', () => {
    const config = resolve({ corporateSso: OIDC_SSO });
    expect(config.corporateSso).toEqual({
      ...OIDC_SSO,
      providerName: 'Corporativo',
      groupsClaim: 'groups',
      scopes: ['openid', 'email', 'profile'],
      emailDomains: [],
    });
    expect(config.domainPrefix).toBe('portal-proveedores-dev');
  });

  it('takes the staff’s e-mail domains as lowercase domain names only', () => {
    const withDomains = (emailDomains: unknown) => resolve({ corporateSso: { ...OIDC_SSO, emailDomains } });
    expect(withDomains(['grupo.pe', 'mail.grupo.com.pe']).corporateSso?.emailDomains).toEqual([
      'grupo.pe',
      'mail.grupo.com.pe',
    ]);
    for (const domain of ['@grupo.pe', 'Grupo.PE', 'https://grupo.pe', 'grupo', 'gestor@grupo.pe']) {
      expect(() => withDomains([domain])).toThrow(/corporateSso\.emailDomains: lowercase e-mail domains/);
    }
  });

  it('reads corporateSso from -c as JSON text, and turns it off with -c corporateSso=none', () => {
    expect(resolve({ corporateSso: JSON.stringify(OIDC_SSO) }).corporateSso?.type).toBe('OIDC');
    expect(resolve({ corporateSso: 'none' }).corporateSso).toBeNull();
    expect(resolveStageConfig(context({ stage: 'prod' })).corporateSso).toBeNull();
  });

  it('refuses an OIDC provider without the name of its client-secret secret', () => {
    const { clientSecretName: _omitted, ...withoutSecret } = OIDC_SSO;
    expect(() => resolve({ corporateSso: withoutSecret })).toThrow(
      /corporateSso\.clientSecretName: name of the Secrets Manager secret/,
    );
  });

  it('refuses a literal client secret in the configuration', () => {
    expect(() => resolve({ corporateSso: { ...OIDC_SSO, clientSecret: 's3cr3t' } })).toThrow(
      /never put the secret in configuration/,
    );
  });

  it('refuses a SAML provider without metadata URL and an unknown provider type', () => {
    expect(() => resolve({ corporateSso: { type: 'SAML' } })).toThrow(/corporateSso\.metadataUrl/);
    expect(() => resolve({ corporateSso: { ...OIDC_SSO, type: 'LDAP' } })).toThrow(/'OIDC' or 'SAML'/);
  });

  it('refuses domain prefixes Cognito would refuse, also when derived from the stage name', () => {
    expect(() => resolve({ domainPrefix: 'Portal_QA' })).toThrow(/domainPrefix 'Portal_QA': 1-63 lowercase letters/);
    expect(() => resolve({ domainPrefix: 'portal-' })).toThrow(/domainPrefix 'portal-'/);
    expect(() => resolve({ domainPrefix: 'portal-aws-qa' })).toThrow(/does not allow the word 'aws'/);
    expect(() => resolve({ domainPrefix: 'mi-cognito' })).toThrow(/does not allow the word 'cognito'/);
    const amazonia = {
      stage: 'amazonia',
      region: REGION,
      webOrigin: WEB_ORIGIN,
      retain: 'false',
      emailSender: { address: 'no-responder@acme.pe' },
    };
    expect(() => resolveStageConfig(context(amazonia))).toThrow(
      /domainPrefix 'portal-proveedores-amazonia': Cognito does not allow the word 'amazon'/,
    );
    expect(resolve({ domainPrefix: 'acme-proveedores-qa' }).domainPrefix).toBe('acme-proveedores-qa');
  });

  it('refuses corporate SSO on a plain-http origin other than localhost', () => {
    expect(() => resolve({ webOrigin: 'http://proveedores.acme.pe', corporateSso: OIDC_SSO })).toThrow(
      /webOrigin: corporate SSO needs an https:\/\/ origin/,
    );
    expect(resolve({ webOrigin: 'http://localhost:5173', corporateSso: OIDC_SSO }).webOrigin).toBe(
      'http://localhost:5173',
    );
  });
});
