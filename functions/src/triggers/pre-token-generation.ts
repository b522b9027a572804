import type { PreTokenGenerationTriggerEvent } from 'aws-lambda';
import {
  CLAIMS,
  RUNTIME_ENV,
  USER_ATTRIBUTES,
  computeLevel,
  isFederated,
  parseGroups,
  type Level,
} from '@portal/shared';
import { observed } from '../observability/observed.js';

/** Read once per cold start: the group whose first position makes a corporate SSO user an ADMIN. */
const ADMIN_GROUP_NAME = process.env[RUNTIME_ENV.adminGroupName]?.trim() || 'portal-admins';

export interface PortalClaims {
  readonly level: Level;
  /** Comma-separated RUC list, '' when the user has none. */
  readonly taxId: string;
  readonly signIn: 'CORPORATE' | 'PASSWORD';
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

/** The trigger's entry. Every sign-in waits on it: logs and a trace, but no metrics to flush. */
export const handler = observed(async (event: PreTokenGenerationTriggerEvent) => applyPortalClaims(event), {
  metrics: false,
});
