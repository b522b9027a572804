import {
  AdminCreateUserCommand,
  AdminDeleteUserAttributesCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  AdminUpdateUserAttributesCommand,
  type AttributeType,
  type CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { randomBytes } from 'node:crypto';
import { USER_ATTRIBUTES } from '@portal/shared';
import { identitiesAttribute } from '../../stand-ins/cognito/federation.js';

/** The demo users in the local user pool, each brought to its declared state at every start. */

export interface DemoUser {
  /** An e-mail: the pool signs users in by e-mail. */
  readonly username: string;
  /** The pool password; for a federated user, its password at the corporate IdP (never set in the pool). */
  readonly password: string;
  readonly firstName: string;
  readonly lastName: string;
  /** Comma-separated RUC list, or null for a user without one. */
  readonly taxId: string | null;
  /** The Suppliers screen's "email reception" (custom:emailNotifications); absent means on. */
  readonly receivesEmails?: boolean;
  /**
   * Internal staff, who sign in through corporate SSO (stand-ins/cognito/hosted-ui.ts federating to simulators/corporate-idp.ts).
   * Provisioned as the federated user their first sign-in would create (the `identities` attribute
   * linking the IdP subject, the groups it sent in custom:groups), so that an administrator can have
   * assigned their companies already; `provisioned: false` leaves the first sign-in to create it.
   */
  readonly federated?: {
    readonly providerName: string;
    readonly subject: string;
    readonly groups: readonly string[];
    readonly provisioned?: boolean;
  };
}

/** Attributes only set at creation: changing them recreates the user (as a new federated sign-in would). */
const CREATION_ONLY_ATTRIBUTES = new Set(['email', 'email_verified', 'identities']);

/** Brings one demo user to its declared state; returns its pool Username. */
export async function ensureUser(
  client: CognitoIdentityProviderClient,
  userPoolId: string,
  user: DemoUser,
): Promise<string> {
  const desired = demoUserAttributes(user);
  const current = await getUser(client, userPoolId, user.username);
  const identitiesNow = current?.attributes.find((attribute) => attribute.Name === 'identities')?.Value ?? null;
  const identitiesWanted = desired.find((attribute) => attribute.Name === 'identities')?.Value ?? null;
  const sameLink = sameIdentity(identitiesNow, identitiesWanted);

  if (current && !sameLink) {
    await client.send(new AdminDeleteUserCommand({ UserPoolId: userPoolId, Username: current.username }));
  }
  let username: string;
  if (!current || !sameLink) {
    const created = await client.send(
      new AdminCreateUserCommand({
        UserPoolId: userPoolId,
        Username: user.username,
        MessageAction: 'SUPPRESS',
        UserAttributes: desired,
      }),
    );
    const createdName = created.User?.Username;
    if (!createdName) throw new Error(`El servidor Cognito local no devolvió el usuario ${user.username}`);
    username = createdName;
  } else {
    username = current.username;
    const values = new Map(current.attributes.map((attribute) => [attribute.Name, attribute.Value]));
    const changed = desired.filter(
      (attribute) =>
        !CREATION_ONLY_ATTRIBUTES.has(attribute.Name ?? '') && values.get(attribute.Name) !== attribute.Value,
    );
    if (changed.length > 0) {
      await client.send(
        new AdminUpdateUserAttributesCommand({
          UserPoolId: userPoolId,
          Username: username,
          UserAttributes: changed,
        }),
      );
    }
    const wanted = new Set(desired.map((attribute) => attribute.Name));
    const stale = [USER_ATTRIBUTES.taxId, USER_ATTRIBUTES.ssoGroups].filter(
      (name) => values.has(name) && !wanted.has(name),
    );
    if (stale.length > 0) {
      await client.send(
        new AdminDeleteUserAttributesCommand({
          UserPoolId: userPoolId,
          Username: username,
          UserAttributeNames: stale,
        }),
      );
    }
  }
  // A federated user signs in at the corporate IdP: its pool password is a random one nobody knows,
  // which also keeps it out of FORCE_CHANGE_PASSWORD (Cognito gives federated users EXTERNAL_PROVIDER).
  await client.send(
    new AdminSetUserPasswordCommand({
      UserPoolId: userPoolId,
      Username: username,
      Password: user.federated ? `Fed-${randomBytes(24).toString('base64url')}9a!` : user.password,
      Permanent: true,
    }),
  );
  return username;
}

/** Whether two `identities` values link the same provider subject (or both are absent). */
function sameIdentity(a: string | null, b: string | null): boolean {
  const link = (raw: string | null) => {
    if (!raw) return null;
    try {
      const [first] = JSON.parse(raw) as { providerName?: string; userId?: string }[];
      return first ? `${first.providerName}|${first.userId}` : null;
    } catch {
      return null;
    }
  };
  return link(a) === link(b);
}

export async function getUser(
  client: CognitoIdentityProviderClient,
  userPoolId: string,
  email: string,
): Promise<{ username: string; attributes: AttributeType[] } | null> {
  try {
    const found = await client.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: email }));
    return { username: found.Username ?? email, attributes: found.UserAttributes ?? [] };
  } catch (error) {
    if ((error as { name?: string }).name === 'UserNotFoundException') return null;
    throw error;
  }
}

/** The attributes a demo user carries; for federated ones, what Cognito writes on a federated sign-in. */
export function demoUserAttributes(user: DemoUser): AttributeType[] {
  const attributes: AttributeType[] = [
    { Name: 'email', Value: user.username },
    { Name: 'email_verified', Value: 'true' },
    { Name: 'given_name', Value: user.firstName },
    { Name: 'family_name', Value: user.lastName },
  ];
  if (user.taxId) attributes.push({ Name: USER_ATTRIBUTES.taxId, Value: user.taxId });
  attributes.push({
    Name: USER_ATTRIBUTES.emailNotifications,
    Value: user.receivesEmails === false ? 'false' : 'true',
  });
  if (user.federated) {
    attributes.push(
      {
        Name: 'identities',
        Value: identitiesAttribute(user.federated.providerName, user.federated.subject, Date.UTC(2026, 0, 5)),
      },
      { Name: USER_ATTRIBUTES.ssoGroups, Value: JSON.stringify(user.federated.groups) },
    );
  }
  return attributes;
}
