import {
  AdminCreateUserCommand,
  AdminDeleteUserAttributesCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  AdminUpdateUserAttributesCommand,
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  UpdateUserPoolClientCommand,
  DescribeUserPoolClientCommand,
  DescribeUserPoolCommand,
  ListUserPoolClientsCommand,
  ListUserPoolsCommand,
  type AttributeType,
} from '@aws-sdk/client-cognito-identity-provider';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { USER_ATTRIBUTES, WEB_CLIENT_ATTRIBUTES, webClientWriteAttributes } from '@portal/shared';
import { identitiesAttribute } from '../../stand-ins/cognito/federation.js';

export const LOCAL_USER_POOL_NAME = 'portal-local';
export const LOCAL_USER_POOL_CLIENT_NAME = 'portal-web';

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

export interface IdentityOutputs {
  readonly userPoolId: string;
  readonly userPoolClientId: string;
  /** The pool's Username (its sub, with e-mail sign-in) of each provisioned demo user, by e-mail. */
  readonly usernames: Readonly<Record<string, string>>;
}

/** The web client's hosted-UI settings (corporate sign-in: authorization code with PKCE). */
export interface HostedUiClientSettings {
  readonly callbackUrls: readonly string[];
  readonly logoutUrls: readonly string[];
  readonly identityProviders: readonly string[];
}

export interface EnsureIdentityOptions {
  /** The Cognito endpoint (the proxy of stand-ins/cognito/cognito.ts). */
  readonly endpoint: string;
  /** JSON file under the stage data directory remembering the ids across restarts. */
  readonly stateFile: string;
  readonly users: readonly DemoUser[];
  /** Accounts of an earlier demo world (a renamed demo user) to remove from a pool kept across restarts. */
  readonly retiredUsernames?: readonly string[];
  readonly hostedUi?: HostedUiClientSettings;
  readonly region?: string;
}

/**
 * Creates, or finds again after a restart, the local user pool, its web client and the demo users.
 * Idempotent: existing users keep their sub and are brought back to the declared attributes and
 * password (a user who changes between federated and not is recreated).
 */
export async function ensureIdentity(options: EnsureIdentityOptions): Promise<IdentityOutputs> {
  const client = new CognitoIdentityProviderClient({
    endpoint: options.endpoint,
    region: options.region ?? 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 2,
  });
  try {
    const saved = await readState(options.stateFile);
    const userPoolId = await ensureUserPool(client, saved?.userPoolId);
    const userPoolClientId = await ensureUserPoolClient(
      client,
      userPoolId,
      saved?.userPoolId === userPoolId ? saved.userPoolClientId : undefined,
    );
    await writeState(options.stateFile, { userPoolId, userPoolClientId });
    if (options.hostedUi) await configureHostedUi(client, userPoolId, userPoolClientId, options.hostedUi);
    for (const retired of options.retiredUsernames ?? []) {
      const found = await getUser(client, userPoolId, retired);
      if (found) await client.send(new AdminDeleteUserCommand({ UserPoolId: userPoolId, Username: found.username }));
    }
    const usernames: Record<string, string> = {};
    for (const user of options.users) {
      if (user.federated?.provisioned === false) continue;
      usernames[user.username] = await ensureUser(client, userPoolId, user);
    }
    return { userPoolId, userPoolClientId, usernames };
  } finally {
    client.destroy();
  }
}

async function ensureUserPool(client: CognitoIdentityProviderClient, savedId: string | undefined): Promise<string> {
  if (savedId && (await exists(() => client.send(new DescribeUserPoolCommand({ UserPoolId: savedId })))))
    return savedId;

  const pools = await client.send(new ListUserPoolsCommand({ MaxResults: 60 }));
  const found = pools.UserPools?.find((pool) => pool.Name === LOCAL_USER_POOL_NAME)?.Id;
  if (found) return found;

  const created = await client.send(
    new CreateUserPoolCommand({
      PoolName: LOCAL_USER_POOL_NAME,
      UsernameAttributes: ['email'],
      AutoVerifiedAttributes: ['email'],
      Policies: {
        // The AWS stages' policy (infra/lib/constructs/identity.ts); the web app checks it before sending.
        PasswordPolicy: {
          MinimumLength: 12,
          RequireLowercase: true,
          RequireUppercase: true,
          RequireNumbers: true,
          RequireSymbols: true,
        },
      },
      Schema: [
        customString(USER_ATTRIBUTES.taxId),
        customString(USER_ATTRIBUTES.ssoGroups),
        customString(USER_ATTRIBUTES.emailNotifications),
      ],
    }),
  );
  const id = created.UserPool?.Id;
  if (!id) throw new Error('El servidor Cognito local no devolvió el id del user pool creado');
  return id;
}

async function ensureUserPoolClient(
  client: CognitoIdentityProviderClient,
  userPoolId: string,
  savedId: string | undefined,
): Promise<string> {
  if (
    savedId &&
    (await exists(() => client.send(new DescribeUserPoolClientCommand({ UserPoolId: userPoolId, ClientId: savedId }))))
  ) {
    return savedId;
  }
  const clients = await client.send(new ListUserPoolClientsCommand({ UserPoolId: userPoolId, MaxResults: 60 }));
  const found = clients.UserPoolClients?.find(
    (appClient) => appClient.ClientName === LOCAL_USER_POOL_CLIENT_NAME,
  )?.ClientId;
  if (found) return found;

  const created = await client.send(
    new CreateUserPoolClientCommand({
      UserPoolId: userPoolId,
      ClientName: LOCAL_USER_POOL_CLIENT_NAME,
      GenerateSecret: false,
      ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
      PreventUserExistenceErrors: 'ENABLED',
      IdTokenValidity: 60,
      AccessTokenValidity: 60,
      RefreshTokenValidity: 30,
      TokenValidityUnits: { IdToken: 'minutes', AccessToken: 'minutes', RefreshToken: 'days' },
      // The AWS stages' permissions (shared WEB_CLIENT_ATTRIBUTES); the Cognito proxy enforces them.
      ReadAttributes: [...WEB_CLIENT_ATTRIBUTES.read],
      WriteAttributes: webClientWriteAttributes(false),
    }),
  );
  const id = created.UserPoolClient?.ClientId;
  if (!id) throw new Error('El servidor Cognito local no devolvió el id del cliente creado');
  return id;
}

/** The client settings the hosted UI checks: code flow only, the registered URLs, the providers. */
async function configureHostedUi(
  client: CognitoIdentityProviderClient,
  userPoolId: string,
  clientId: string,
  settings: HostedUiClientSettings,
): Promise<void> {
  const current = await client.send(new DescribeUserPoolClientCommand({ UserPoolId: userPoolId, ClientId: clientId }));
  const appClient = current.UserPoolClient;
  await client.send(
    new UpdateUserPoolClientCommand({
      UserPoolId: userPoolId,
      ClientId: clientId,
      ClientName: appClient?.ClientName,
      ExplicitAuthFlows: appClient?.ExplicitAuthFlows,
      PreventUserExistenceErrors: appClient?.PreventUserExistenceErrors,
      IdTokenValidity: appClient?.IdTokenValidity,
      AccessTokenValidity: appClient?.AccessTokenValidity,
      RefreshTokenValidity: appClient?.RefreshTokenValidity,
      TokenValidityUnits: appClient?.TokenValidityUnits,
      // With a corporate provider the client also writes its mapped groups (as the AWS stages' client does).
      ReadAttributes: [...WEB_CLIENT_ATTRIBUTES.read],
      WriteAttributes: webClientWriteAttributes(settings.identityProviders.length > 0),
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthFlows: ['code'],
      AllowedOAuthScopes: ['openid', 'email', 'profile'],
      CallbackURLs: [...settings.callbackUrls],
      LogoutURLs: [...settings.logoutUrls],
      SupportedIdentityProviders: ['COGNITO', ...settings.identityProviders],
    }),
  );
}

/** Attributes only set at creation: changing them recreates the user (as a new federated sign-in would). */
const CREATION_ONLY_ATTRIBUTES = new Set(['email', 'email_verified', 'identities']);

/** Brings one demo user to its declared state; returns its pool Username. */
async function ensureUser(client: CognitoIdentityProviderClient, userPoolId: string, user: DemoUser): Promise<string> {
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

async function getUser(
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

function customString(attributeName: string) {
  return {
    Name: attributeName.replace(/^custom:/, ''),
    AttributeDataType: 'String' as const,
    Mutable: true,
    Required: false,
    StringAttributeConstraints: { MinLength: '0', MaxLength: '2048' },
  };
}

/** Runs a describe call: false when the resource does not exist, any other error is rethrown. */
async function exists(call: () => Promise<unknown>): Promise<boolean> {
  try {
    await call();
    return true;
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name === 'ResourceNotFoundException' || name === 'UserNotFoundException') return false;
    throw error;
  }
}

type SavedIds = Omit<IdentityOutputs, 'usernames'>;

async function readState(stateFile: string): Promise<Partial<SavedIds> | null> {
  try {
    const parsed: unknown = JSON.parse(await readFile(stateFile, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null) return null;
    const record = parsed as Record<string, unknown>;
    return {
      userPoolId: typeof record.userPoolId === 'string' ? record.userPoolId : undefined,
      userPoolClientId: typeof record.userPoolClientId === 'string' ? record.userPoolClientId : undefined,
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || error instanceof SyntaxError) return null;
    throw error;
  }
}

async function writeState(stateFile: string, outputs: SavedIds): Promise<void> {
  await mkdir(path.dirname(stateFile), { recursive: true });
  const temp = `${stateFile}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(outputs, null, 2)}\n`);
  await rename(temp, stateFile);
}
