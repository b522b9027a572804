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
} as const;

/** User-pool attributes of the product. */
export const USER_ATTRIBUTES = {
  taxId: 'custom:taxId',
  /** Groups of a corporate SSO user, as the identity provider sent them (JSON array or comma list). */
  ssoGroups: 'custom:groups',
  emailNotifications: 'custom:emailNotifications',
} as const;

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
