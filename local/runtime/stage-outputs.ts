import type { WebConfig } from '@portal/shared';
import { CORPORATE_EMAIL_DOMAIN, DEMO_USERS, LOCAL_SSO_PROVIDER } from '../seed/seed-data.js';
import { CORPORATE_SCOPES } from '../simulators/corporate-idp.js';
import { LOCAL_INTAKE_MAIL_DOMAIN } from '../simulators/mail-dns.js';
import type { LocalStageConfig } from './config.js';
import { demoAccountOf, type LocalOutputs } from './outputs.js';

/** What a started stage tells the web app (/config.json) and the developer's tools (.local/outputs.json). */

interface StageIdentity {
  readonly userPoolId: string;
  readonly userPoolClientId: string;
}

/** The web app's /config.json on the local stage. */
export function webConfigOf(
  { stage, region }: LocalStageConfig,
  {
    apiUrl,
    identity,
    cognitoEndpoint,
    webUrl,
  }: { apiUrl: string; identity: StageIdentity; cognitoEndpoint: string; webUrl: string },
): WebConfig {
  return {
    stage,
    apiUrl,
    region,
    userPoolId: identity.userPoolId,
    userPoolClientId: identity.userPoolClientId,
    cognitoEndpoint,
    oauth: {
      baseUrl: cognitoEndpoint,
      providerName: LOCAL_SSO_PROVIDER,
      redirectSignIn: `${webUrl}/login`,
      redirectSignOut: `${webUrl}/`,
      scopes: [...CORPORATE_SCOPES],
    },
    corporateEmailDomains: [CORPORATE_EMAIL_DOMAIN],
    chat: null,
    waf: null,
    intakeMailDomain: LOCAL_INTAKE_MAIL_DOMAIN,
  };
}

/** .local/outputs.json: where each part of the running stage is, its names and the demo accounts. */
export function outputsOf(
  { stage, dataDir, region, tenants }: LocalStageConfig,
  running: {
    web: string;
    api: string;
    identity: StageIdentity;
    cognitoEndpoint: string;
    poolIssuer: string;
    corporateIssuer: string;
    endpoints: LocalOutputs['endpoints'];
    tableName: string;
    documentsBucket: string;
    queues: Record<string, { readonly url: string; readonly dlqUrl: string }>;
  },
): LocalOutputs {
  return {
    stage,
    dataDir,
    webUrl: running.web,
    apiUrl: running.api,
    region,
    userPoolId: running.identity.userPoolId,
    userPoolClientId: running.identity.userPoolClientId,
    cognitoEndpoint: running.cognitoEndpoint,
    issuer: running.poolIssuer,
    corporateIdp: { issuer: running.corporateIssuer, providerName: LOCAL_SSO_PROVIDER },
    endpoints: running.endpoints,
    intakeMailDomain: LOCAL_INTAKE_MAIL_DOMAIN,
    tenants,
    tableName: running.tableName,
    documentsBucket: running.documentsBucket,
    queues: Object.fromEntries(
      Object.entries(running.queues).map(([key, queue]) => [key, { url: queue.url, dlqUrl: queue.dlqUrl }]),
    ),
    demoUsers: DEMO_USERS.map(demoAccountOf),
  };
}
