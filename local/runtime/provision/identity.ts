import {
  AdminDeleteUserCommand,
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  UpdateUserPoolClientCommand,
  DescribeUserPoolClientCommand,
  DescribeUserPoolCommand,
  ListUserPoolClientsCommand,
  ListUserPoolsCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { USER_ATTRIBUTES, WEB_CLIENT_ATTRIBUTES, webClientWriteAttributes } from '@portal/shared';
import { ensureUser, getUser, type DemoUser } from './users.js';

export type { DemoUser } from './users.js';

export const LOCAL_USER_POOL_NAME = 'portal-local';
export const LOCAL_USER_POOL_CLIENT_NAME = 'portal-web';

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

/**
 * The id of what provisioning keeps across starts: the saved one while it still exists, else the one found by its
 * name, else the one just created (cognito-local must answer it).
 */
async function savedFoundOrCreated(steps: {
  readonly savedId: string | undefined;
  readonly exists: (id: string) => Promise<unknown>;
  readonly find: () => Promise<string | undefined>;
  readonly create: () => Promise<string | undefined>;
  readonly missing: string;
}): Promise<string> {
  const { savedId } = steps;
  if (savedId && (await exists(() => steps.exists(savedId)))) return savedId;
  const found = await steps.find();
  if (found) return found;
  const id = await steps.create();
  if (!id) throw new Error(steps.missing);
  return id;
}

async function ensureUserPool(client: CognitoIdentityProviderClient, savedId: string | undefined): Promise<string> {
  return savedFoundOrCreated({
    savedId,
    exists: (id) => client.send(new DescribeUserPoolCommand({ UserPoolId: id })),
    find: async () =>
      (await client.send(new ListUserPoolsCommand({ MaxResults: 60 }))).UserPools?.find(
        (pool) => pool.Name === LOCAL_USER_POOL_NAME,
      )?.Id,
    create: async () => (await createUserPool(client)).UserPool?.Id,
    missing: 'El servidor Cognito local no devolvió el id del user pool creado',
  });
}

function createUserPool(client: CognitoIdentityProviderClient) {
  return client.send(
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
}

async function ensureUserPoolClient(
  client: CognitoIdentityProviderClient,
  userPoolId: string,
  savedId: string | undefined,
): Promise<string> {
  return savedFoundOrCreated({
    savedId,
    exists: (id) => client.send(new DescribeUserPoolClientCommand({ UserPoolId: userPoolId, ClientId: id })),
    find: async () =>
      (
        await client.send(new ListUserPoolClientsCommand({ UserPoolId: userPoolId, MaxResults: 60 }))
      ).UserPoolClients?.find((appClient) => appClient.ClientName === LOCAL_USER_POOL_CLIENT_NAME)?.ClientId,
    create: async () => (await createUserPoolClient(client, userPoolId)).UserPoolClient?.ClientId,
    missing: 'El servidor Cognito local no devolvió el id del cliente creado',
  });
}

function createUserPoolClient(client: CognitoIdentityProviderClient, userPoolId: string) {
  return client.send(
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
