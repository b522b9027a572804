import type { Level } from './domain.js';

/**
 * Claim names the PreTokenGeneration trigger writes into the ID token and the API reads back.
 * The web app sends the ID token as its bearer token (the trigger can only shape the ID token).
 */
export const CLAIMS = {
  level: 'level',
  taxId: 'taxId',
  groups: 'cognito:groups',
  /** Set by Cognito on users who signed in through a federated identity provider. */
  identities: 'identities',
  /** How the user signed in, 'CORPORATE' (SSO) or 'PASSWORD': the invoice audit trail names it. */
  signIn: 'signIn',
  /** Access tokens: the app client that asked for the token (an API client's id for client credentials). */
  clientId: 'client_id',
  /** Access tokens: the granted scopes, space-separated (`portal/invoices.submit portal/invoices.read`). */
  scope: 'scope',
  tokenUse: 'token_use',
} as const;

/**
 * The API's OAuth2 resource server (Cognito's resource server identifier) and the scopes a supplier's API
 * client may be given. A token carries them as `<resource server>/<scope>`; a route of the manifest names the one
 * that lets a machine client call it (RouteDef.machineScope). Cognito forbids '/' inside a scope's own name.
 */
export const API_RESOURCE_SERVER = 'portal';
export const API_CLIENT_SCOPES = ['invoices.submit', 'invoices.read'] as const;
export type ApiClientScope = (typeof API_CLIENT_SCOPES)[number];
export const API_CLIENT_SCOPE_LABELS: Record<ApiClientScope, string> = {
  'invoices.submit': 'Registrar comprobantes (subir archivos y enviar el XML)',
  'invoices.read': 'Consultar sus comprobantes y descargar sus archivos',
};
export const fullScope = (scope: ApiClientScope): string => `${API_RESOURCE_SERVER}/${scope}`;

/** User-pool attributes of the product. */
export const USER_ATTRIBUTES = {
  taxId: 'custom:taxId',
  /** Groups of a corporate SSO user, as the identity provider sent them (JSON array or comma list). */
  ssoGroups: 'custom:groups',
  emailNotifications: 'custom:emailNotifications',
} as const;

/**
 * The web app client's attribute permissions (Cognito's ReadAttributes and WriteAttributes), by the
 * pool's attribute names: the CDK identity construct gives them to the client, the local stage's
 * Cognito proxy enforces them as Cognito does. A signed-in user may change its name and e-mail only;
 * custom:taxId and custom:emailNotifications are written by the portal's administrators through the
 * admin API (which these permissions do not limit).
 */
export const WEB_CLIENT_ATTRIBUTES = {
  read: ['email', 'email_verified', 'given_name', 'family_name', USER_ATTRIBUTES.taxId, USER_ATTRIBUTES.ssoGroups],
  write: ['email', 'given_name', 'family_name'],
  /**
   * Writable too when the pool federates a corporate IdP: Cognito writes the IdP's mapped attributes
   * at each federated sign-in with the client's write permissions (without it that sign-in fails).
   */
  writeWithSso: [USER_ATTRIBUTES.ssoGroups],
} as const;

/** The attributes the web app client may write, with or without corporate SSO. */
export function webClientWriteAttributes(sso: boolean): string[] {
  return [...WEB_CLIENT_ATTRIBUTES.write, ...(sso ? WEB_CLIENT_ATTRIBUTES.writeWithSso : [])];
}

/** Splits the comma-separated RUC list of a taxId attribute or claim. */
export function parseTaxIds(raw: string | null | undefined): string[] {
  if (!raw) return [];
  return raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

/**
 * The groups an identity provider sent, in order. Cognito stores a mapped OIDC array claim as JSON
 * (`["a","b"]`) and a multi-valued SAML attribute as `[a, b]`; a single value arrives as is.
 */
export function parseGroups(raw: string | null | undefined): string[] {
  if (!raw) return [];
  const trimmed = raw.trim();
  if (trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (Array.isArray(parsed)) return parsed.map((group) => String(group).trim()).filter(Boolean);
    } catch {
      if (trimmed.endsWith(']')) return parseTaxIds(trimmed.slice(1, -1));
      return [];
    }
  }
  return parseTaxIds(trimmed);
}

/** Whether the user attributes belong to a user who signed in through a federated provider. */
export function isFederated(identitiesAttribute: string | null | undefined): boolean {
  if (!identitiesAttribute) return false;
  try {
    const parsed: unknown = JSON.parse(identitiesAttribute);
    return Array.isArray(parsed) && parsed.length > 0;
  } catch {
    return false;
  }
}

/**
 * Spec §6: a corporate SSO user is ADMIN when the first group claim equals the admin group name,
 * otherwise MANAGER; every other user is SUPPLIER.
 */
export function computeLevel(input: { federated: boolean; groups: string[]; adminGroupName: string }): Level {
  if (!input.federated) return 'SUPPLIER';
  return input.groups[0] === input.adminGroupName ? 'ADMIN' : 'MANAGER';
}
