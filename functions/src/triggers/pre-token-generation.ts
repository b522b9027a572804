import type {
  PreTokenGenerationTriggerEvent,
  PreTokenGenerationV2TriggerEvent,
  PreTokenGenerationV3TriggerEvent,
} from 'aws-lambda';
import {
  CLAIMS,
  RUNTIME_ENV,
  USER_ATTRIBUTES,
  computeLevel,
  isFederated,
  parseGroups,
  type Level,
} from '@portal/shared';
import { documentClient, tableName } from '../adapters/dynamodb.js';
import { observed } from '../observability/observed.js';
import { makeApiClientRepository, type StoredApiClient } from '../repositories/api-clients.js';

/** Read once per cold start: the group whose first position makes a corporate SSO user an ADMIN. */
const ADMIN_GROUP_NAME = process.env[RUNTIME_ENV.adminGroupName]?.trim() || 'portal-admins';

export interface PortalClaims {
  readonly level: Level;
  /** Comma-separated RUC list, '' when the user has none. */
  readonly taxId: string;
  readonly signIn: 'CORPORATE' | 'PASSWORD' | 'API';
}

/**
 * The claims the portal adds to the ID token, from the user-pool attributes alone (spec §6).
 * A user is federated when Cognito wrote the `identities` attribute (corporate SSO); its groups are
 * the ones the identity provider sent, mapped to `custom:groups`.
 */
export function portalClaims(
  userAttributes: Readonly<Record<string, string | undefined>>,
  adminGroupName: string = ADMIN_GROUP_NAME,
): PortalClaims {
  const federated = isFederated(userAttributes[CLAIMS.identities]);
  const groups = parseGroups(userAttributes[USER_ATTRIBUTES.ssoGroups]);
  const level = computeLevel({ federated, groups, adminGroupName });
  const taxId = userAttributes[USER_ATTRIBUTES.taxId] ?? '';
  return { level, taxId, signIn: federated ? 'CORPORATE' : 'PASSWORD' };
}

function nameClaims(attributes: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const claims: Record<string, string> = {};
  for (const name of ['given_name', 'family_name'] as const) {
    const value = attributes[name];
    if (value) claims[name] = value;
  }
  return claims;
}

/** Cognito PreTokenGeneration (V1) trigger: adds `level` and `taxId` to the ID token. */
export function applyPortalClaims(
  event: PreTokenGenerationTriggerEvent,
  adminGroupName: string = ADMIN_GROUP_NAME,
): PreTokenGenerationTriggerEvent {
  const claims = portalClaims(event.request.userAttributes ?? {}, adminGroupName);
  const previous = event.response?.claimsOverrideDetails ?? {};
  event.response = {
    ...event.response,
    claimsOverrideDetails: {
      ...previous,
      claimsToAddOrOverride: {
        ...previous.claimsToAddOrOverride,
        [CLAIMS.level]: claims.level,
        [CLAIMS.taxId]: claims.taxId,
        [CLAIMS.signIn]: claims.signIn,
        // The session user's name (spec §3). Cognito already puts these in the ID token; cognito-local
        // does not, so stating them keeps both stages alike.
        ...nameClaims(event.request.userAttributes ?? {}),
      },
    },
  };
  return event;
}

/** A user's sign-in with the V2/V3 event (AWS, Essentials plan): the same claims, in the ID and the access token. */
export function applyPortalClaimsV2(
  event: PreTokenGenerationV2TriggerEvent,
  adminGroupName: string = ADMIN_GROUP_NAME,
): PreTokenGenerationV2TriggerEvent {
  const claims = portalClaims(event.request.userAttributes ?? {}, adminGroupName);
  const added = {
    [CLAIMS.level]: claims.level,
    [CLAIMS.taxId]: claims.taxId,
    [CLAIMS.signIn]: claims.signIn,
    ...nameClaims(event.request.userAttributes ?? {}),
  };
  const previous = event.response?.claimsAndScopeOverrideDetails ?? {};
  event.response = {
    claimsAndScopeOverrideDetails: {
      ...previous,
      idTokenGeneration: {
        ...previous.idTokenGeneration,
        claimsToAddOrOverride: { ...previous.idTokenGeneration?.claimsToAddOrOverride, ...added },
      },
      accessTokenGeneration: {
        ...previous.accessTokenGeneration,
        claimsToAddOrOverride: {
          ...previous.accessTokenGeneration?.claimsToAddOrOverride,
          [CLAIMS.level]: claims.level,
          [CLAIMS.taxId]: claims.taxId,
          [CLAIMS.signIn]: claims.signIn,
        },
      },
    },
  };
  return event;
}

/**
 * A supplier's API client asking for a token (client credentials, V3 event `TokenGeneration_ClientCredentials`):
 * Cognito sends no user, only `callerContext.clientId` and the scopes. The access token gets the claims the API's
 * Caller needs (a supplier's level and the one RUC the client was created for) from the client's item. An unknown
 * or revoked client gets no token: the trigger fails, and Cognito refuses the request.
 */
export async function applyMachineClaims(
  event: PreTokenGenerationV3TriggerEvent,
  find: (clientId: string) => Promise<StoredApiClient | null>,
): Promise<PreTokenGenerationV3TriggerEvent> {
  const clientId = event.callerContext?.clientId ?? '';
  const client = clientId ? await find(clientId) : null;
  if (!client || client.revokedAt !== null) throw new Error(`API client ${clientId || '(none)'} is not active`);
  const previous = event.response?.claimsAndScopeOverrideDetails ?? {};
  event.response = {
    claimsAndScopeOverrideDetails: {
      ...previous,
      accessTokenGeneration: {
        ...previous.accessTokenGeneration,
        claimsToAddOrOverride: {
          ...previous.accessTokenGeneration?.claimsToAddOrOverride,
          [CLAIMS.level]: 'SUPPLIER',
          [CLAIMS.taxId]: client.taxId,
          [CLAIMS.signIn]: 'API',
        },
      },
    },
  };
  return event;
}

type AnyPreTokenEvent =
  PreTokenGenerationTriggerEvent | PreTokenGenerationV2TriggerEvent | PreTokenGenerationV3TriggerEvent;

let apiClients: ReturnType<typeof makeApiClientRepository> | undefined;

/**
 * Answers whichever event version the pool sends: V1 (cognito-local, and a pool without the Essentials plan),
 * V2/V3 for a user's sign-in, V3 `TokenGeneration_ClientCredentials` for an API client.
 */
export async function portalTokenClaims<E extends AnyPreTokenEvent>(event: E): Promise<E> {
  if (event.triggerSource === 'TokenGeneration_ClientCredentials') {
    apiClients ??= makeApiClientRepository(documentClient, tableName());
    return (await applyMachineClaims(event as PreTokenGenerationV3TriggerEvent, (id) => apiClients!.get(id))) as E;
  }
  const version = String((event as { version?: unknown }).version ?? '1');
  if (version === '2' || version === '3') return applyPortalClaimsV2(event as PreTokenGenerationV2TriggerEvent) as E;
  return applyPortalClaims(event as PreTokenGenerationTriggerEvent) as E;
}

/** The trigger's entry. Every sign-in waits on it: logs and a trace, but no metrics to flush. */
export const handler = observed(portalTokenClaims, { metrics: false });
