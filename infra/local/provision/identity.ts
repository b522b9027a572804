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
  DescribeUserPoolClientCommand,
  DescribeUserPoolCommand,
  ListUserPoolClientsCommand,
  ListUserPoolsCommand,
  type AttributeType,
} from '@aws-sdk/client-cognito-identity-provider';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { USER_ATTRIBUTES } from '@portal/shared';

export const LOCAL_USER_POOL_NAME = 'portal-local';
export const LOCAL_USER_POOL_CLIENT_NAME = 'portal-web';

export interface DemoUser {
  /** An e-mail: the pool signs users in by e-mail. */
  readonly username: string;
  readonly password: string;
  readonly firstName: string;
  readonly lastName: string;
  /** Comma-separated RUC list, or null for a user without one. */
  readonly taxId: string | null;
  /**
   * Internal staff who would sign in through corporate SSO. Until the local corporate IdP exists they
   * are plain pool users carrying what a federated sign-in leaves on a user: the `identities`
   * attribute and the groups the IdP sent (custom:groups).
   */
  readonly federated?: { readonly providerName: string; readonly groups: string[] };
}

export interface IdentityOutputs {
  readonly userPoolId: string;
  readonly userPoolClientId: string;
}

export interface EnsureIdentityOptions {
  /** The Cognito endpoint (the proxy of services/cognito.ts). */
  readonly endpoint: string;
  /** JSON file under the stage data directory remembering the ids across restarts. */
  readonly stateFile: string;
  readonly users: readonly DemoUser[];
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
    const outputs: IdentityOutputs = { userPoolId, userPoolClientId };
    await writeState(options.stateFile, outputs);
    for (const user of options.users) await ensureUser(client, userPoolId, user);
    return outputs;
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
        PasswordPolicy: {
          MinimumLength: 8,
          RequireLowercase: true,
          RequireUppercase: true,
          RequireNumbers: true,
          RequireSymbols: false,
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
    }),
  );
  const id = created.UserPoolClient?.ClientId;
  if (!id) throw new Error('El servidor Cognito local no devolvió el id del cliente creado');
  return id;
}

/** Attributes only set at creation: changing them recreates the user (as a new federated sign-in would). */
const CREATION_ONLY_ATTRIBUTES = new Set(['email', 'email_verified', 'identities']);

async function ensureUser(client: CognitoIdentityProviderClient, userPoolId: string, user: DemoUser): Promise<void> {
  const desired = demoUserAttributes(user);
  const current = await getUserAttributes(client, userPoolId, user.username);
  const federatedNow = current?.some((attribute) => attribute.Name === 'identities') ?? false;

  if (current && federatedNow !== Boolean(user.federated)) {
    await client.send(new AdminDeleteUserCommand({ UserPoolId: userPoolId, Username: user.username }));
  }
  if (!current || federatedNow !== Boolean(user.federated)) {
    await client.send(
      new AdminCreateUserCommand({
        UserPoolId: userPoolId,
        Username: user.username,
        MessageAction: 'SUPPRESS',
        UserAttributes: desired,
      }),
    );
  } else {
    const values = new Map(current.map((attribute) => [attribute.Name, attribute.Value]));
    const changed = desired.filter(
      (attribute) =>
        !CREATION_ONLY_ATTRIBUTES.has(attribute.Name ?? '') && values.get(attribute.Name) !== attribute.Value,
    );
    if (changed.length > 0) {
      await client.send(
        new AdminUpdateUserAttributesCommand({
          UserPoolId: userPoolId,
          Username: user.username,
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
          Username: user.username,
          UserAttributeNames: stale,
        }),
      );
    }
  }
  await client.send(
    new AdminSetUserPasswordCommand({
      UserPoolId: userPoolId,
      Username: user.username,
      Password: user.password,
      Permanent: true,
    }),
  );
}

async function getUserAttributes(
  client: CognitoIdentityProviderClient,
  userPoolId: string,
  username: string,
): Promise<AttributeType[] | null> {
  try {
    const found = await client.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: username }));
    return found.UserAttributes ?? [];
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
  if (user.federated) {
    attributes.push(
      {
        Name: 'identities',
        Value: JSON.stringify([
          {
            userId: user.username,
            providerName: user.federated.providerName,
            providerType: 'OIDC',
            issuer: null,
            primary: 'true',
            dateCreated: String(Date.UTC(2024, 0, 1)),
          },
        ]),
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

async function readState(stateFile: string): Promise<Partial<IdentityOutputs> | null> {
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

async function writeState(stateFile: string, outputs: IdentityOutputs): Promise<void> {
  await mkdir(path.dirname(stateFile), { recursive: true });
  const temp = `${stateFile}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(outputs, null, 2)}\n`);
  await rename(temp, stateFile);
}
