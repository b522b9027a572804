import { randomInt } from 'node:crypto';
import {
  AdminCreateUserCommand,
  AdminDeleteUserAttributesCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  AdminUpdateUserAttributesCommand,
  AdminUserGlobalSignOutCommand,
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  DeleteUserPoolClientCommand,
  ForgotPasswordCommand,
  ResourceNotFoundException,
  InvalidParameterException,
  LimitExceededException,
  ListUsersCommand,
  UserNotFoundException,
  UsernameExistsException,
  type AttributeType,
} from '@aws-sdk/client-cognito-identity-provider';
import {
  BadRequestError,
  CLAIMS,
  fullScope,
  type ApiClientScope,
  ConflictError,
  NotFoundError,
  PortalError,
  RUNTIME_ENV,
  USER_ATTRIBUTES,
  isFederated,
  parseGroups,
  parseTaxIds,
} from '@portal/shared';
import { telemetry } from '../observability/telemetry.js';
import { MAX_DIRECTORY_PAGE, type DirectoryUser, type UserDirectory } from '../use-cases/user-admin-ports.js';

/** The part of the SDK client the directory uses: tests pass an in-memory pool (cognito.fake.ts). */
export type CognitoClient = Pick<CognitoIdentityProviderClient, 'send'>;

export interface UserPoolIds {
  readonly userPoolId: string;
  /** The web app client: ForgotPassword is started for it, so the code works where the user signs in. */
  readonly clientId: string;
}

const attributesOf = (list: readonly AttributeType[] | undefined) =>
  new Map((list ?? []).map((attribute) => [attribute.Name ?? '', attribute.Value ?? '']));

function toDirectoryUser(user: {
  Username?: string | undefined;
  Attributes?: AttributeType[] | undefined;
  UserAttributes?: AttributeType[] | undefined;
  Enabled?: boolean | undefined;
  UserStatus?: string | undefined;
  UserCreateDate?: Date | undefined;
}): DirectoryUser {
  const attributes = attributesOf(user.Attributes ?? user.UserAttributes);
  const created = user.UserCreateDate;
  return {
    id: user.Username ?? '',
    email: attributes.get('email') ?? '',
    firstName: attributes.get('given_name') ?? '',
    lastName: attributes.get('family_name') ?? '',
    taxIds: parseTaxIds(attributes.get(USER_ATTRIBUTES.taxId)),
    groups: parseGroups(attributes.get(USER_ATTRIBUTES.ssoGroups)),
    federated: isFederated(attributes.get(CLAIMS.identities)),
    emailNotifications: attributes.get(USER_ATTRIBUTES.emailNotifications) !== 'false',
    enabled: user.Enabled ?? true,
    status: user.UserStatus ?? 'UNKNOWN',
    createdAt: created instanceof Date && !Number.isNaN(created.getTime()) ? created.toISOString() : null,
  };
}

/** A value inside a ListUsers filter's double quotes: Cognito wants `"` and `\` escaped. */
const filterValue = (value: string) => value.replace(/[\\"]/g, (c) => `\\${c}`);

/** Cognito's failures that a caller can act on, as catalogue errors; anything else stays a 500. */
function portalErrorOf(error: unknown): unknown {
  if (error instanceof UserNotFoundException) return new NotFoundError('ERROR_USER_NOT_FOUND');
  if (error instanceof UsernameExistsException) return new ConflictError('ERROR_USER_ALREADY_EXISTS');
  if (error instanceof LimitExceededException) return new PortalError(429, 'ERROR_TOO_MANY_ATTEMPTS');
  return error;
}

type NewAccount = Parameters<UserDirectory['createUser']>[0];
type AccountChange = Parameters<UserDirectory['updateUser']>[1];

/** A new account's attributes: its e-mail (verified: the administrator typed it), names, RUCs and e-mail choice. */
function newUserAttributes(account: NewAccount): AttributeType[] {
  const attributes: AttributeType[] = [
    { Name: 'email', Value: account.email },
    { Name: 'email_verified', Value: 'true' },
    { Name: 'given_name', Value: account.firstName },
    { Name: 'family_name', Value: account.lastName },
    { Name: USER_ATTRIBUTES.emailNotifications, Value: String(account.emailNotifications) },
  ];
  if (account.taxIds.length > 0) attributes.push({ Name: USER_ATTRIBUTES.taxId, Value: account.taxIds.join(',') });
  return attributes;
}

/** The attributes a change sets and those it removes (an empty RUC list removes the attribute). */
function attributeChanges(change: AccountChange): { set: AttributeType[]; remove: string[] } {
  const set: AttributeType[] = [];
  const remove: string[] = [];
  if (change.taxIds !== undefined) {
    if (change.taxIds.length > 0) set.push({ Name: USER_ATTRIBUTES.taxId, Value: change.taxIds.join(',') });
    else remove.push(USER_ATTRIBUTES.taxId);
  }
  if (change.emailNotifications !== undefined) {
    set.push({ Name: USER_ATTRIBUTES.emailNotifications, Value: String(change.emailNotifications) });
  }
  return { set, remove };
}

/**
 * The user pool through Cognito's admin API. One code path for AWS and the local stage (cognito-local):
 * only operations both support, ListUsers paged by PaginationToken (cognito-local answers every user at
 * once, without one), no AdminResetUserPassword, no RESEND. AdminUserGlobalSignOut, which cognito-local lacks,
 * is answered by the local stage's Cognito proxy as Cognito does (local/stand-ins/cognito/cognito.ts).
 */
export function makeCognitoDirectory(client: CognitoClient, ids: () => UserPoolIds): UserDirectory {
  const pool = () => ids().userPoolId;
  const call = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw portalErrorOf(error);
    }
  };

  return {
    async listUsers({ limit, token, email, emailPrefix }) {
      const filter =
        email !== undefined
          ? `email = "${filterValue(email)}"`
          : emailPrefix !== undefined
            ? `email ^= "${filterValue(emailPrefix)}"`
            : undefined;
      try {
        const page = await client.send(
          new ListUsersCommand({
            UserPoolId: pool(),
            Limit: Math.max(1, Math.min(limit, MAX_DIRECTORY_PAGE)),
            PaginationToken: token,
            Filter: filter,
          }),
        );
        return { users: (page.Users ?? []).map(toDirectoryUser), nextToken: page.PaginationToken ?? null };
      } catch (error) {
        // A token Cognito does not recognise came from a tampered or stale cursor.
        if (token !== undefined && error instanceof InvalidParameterException) {
          throw new BadRequestError('ERROR_INVALID_CURSOR');
        }
        throw error;
      }
    },

    async getUser(userId) {
      try {
        return toDirectoryUser(await client.send(new AdminGetUserCommand({ UserPoolId: pool(), Username: userId })));
      } catch (error) {
        if (error instanceof UserNotFoundException) return null;
        throw error;
      }
    },

    createUser: (account) =>
      call(async () => {
        const created = await client.send(
          new AdminCreateUserCommand({
            UserPoolId: pool(),
            // With e-mail sign-in the Username given is the e-mail; Cognito answers the new sub as Username.
            Username: account.email,
            TemporaryPassword: account.temporaryPassword,
            MessageAction: 'SUPPRESS',
            UserAttributes: newUserAttributes(account),
          }),
        );
        if (!created.User?.Username) throw new Error('AdminCreateUser answered without the new user');
        return toDirectoryUser(created.User);
      }),

    updateUser: (userId, change) =>
      call(async () => {
        const { set, remove } = attributeChanges(change);
        if (set.length > 0) {
          await client.send(
            new AdminUpdateUserAttributesCommand({ UserPoolId: pool(), Username: userId, UserAttributes: set }),
          );
        }
        if (remove.length > 0) {
          await client.send(
            new AdminDeleteUserAttributesCommand({ UserPoolId: pool(), Username: userId, UserAttributeNames: remove }),
          );
        }
      }),

    setTemporaryPassword: (userId, password) =>
      call(async () => {
        await client.send(
          new AdminSetUserPasswordCommand({
            UserPoolId: pool(),
            Username: userId,
            Password: password,
            Permanent: false,
          }),
        );
      }),

    startPasswordReset: (userId) =>
      call(async () => {
        await client.send(new ForgotPasswordCommand({ ClientId: ids().clientId, Username: userId }));
      }),

    disable: (userId) =>
      call(async () => {
        await client.send(new AdminDisableUserCommand({ UserPoolId: pool(), Username: userId }));
      }),

    enable: (userId) =>
      call(async () => {
        await client.send(new AdminEnableUserCommand({ UserPoolId: pool(), Username: userId }));
      }),

    signOut: (userId) =>
      call(async () => {
        await client.send(new AdminUserGlobalSignOutCommand({ UserPoolId: pool(), Username: userId }));
      }),
  };
}

/**
 * The portal's user pool: the SDK client is built once per cold start (AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER
 * points it at the local stage's stand-in); the pool ids are read at the first call, so that a function
 * without them (the audit log) can load the same module.
 */
export function cognitoDirectoryFromEnv(): UserDirectory {
  const client = telemetry.instrumentClient(new CognitoIdentityProviderClient({}));
  let ids: UserPoolIds | undefined;
  return makeCognitoDirectory(client, () => {
    if (ids) return ids;
    const userPoolId = process.env[RUNTIME_ENV.userPoolId];
    const clientId = process.env[RUNTIME_ENV.userPoolClientId];
    if (!userPoolId || !clientId) {
      throw new Error(`${RUNTIME_ENV.userPoolId} and ${RUNTIME_ENV.userPoolClientId} must be set`);
    }
    ids = { userPoolId, clientId };
    return ids;
  });
}

const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const DIGITS = '23456789';
/** Symbols Cognito accepts that read unambiguously in an e-mail and survive copy and paste. */
const SYMBOLS = '!#$%*+-=?@_';
const TEMPORARY_PASSWORD_LENGTH = 16;

/**
 * A temporary password meeting the pool's policy (12 or more characters with upper and lower case,
 * a digit and a symbol), from the system's CSPRNG; look-alike characters (O/0, l/1/I) are left out.
 */
export function generateTemporaryPassword(): string {
  const all = UPPER + LOWER + DIGITS + SYMBOLS;
  const pick = (set: string) => set[randomInt(set.length)]!;
  const chars = [pick(UPPER), pick(LOWER), pick(DIGITS), pick(SYMBOLS)];
  while (chars.length < TEMPORARY_PASSWORD_LENGTH) chars.push(pick(all));
  // Fisher–Yates, so the guaranteed classes are not always in front.
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

/** What the API clients' use case asks of the user pool. */
export interface AppClients {
  /** A confidential app client for the client-credentials grant with these scopes; its secret, once. */
  create(input: {
    name: string;
    scopes: readonly ApiClientScope[];
  }): Promise<{ clientId: string; clientSecret: string }>;
  /** Deletes it: its secret stops working at once. An app client already gone is not an error. */
  delete(clientId: string): Promise<void>;
}

/**
 * An app client's name as Cognito takes it (`[\w\s+=,.@-]+`, at most 128): accents dropped, anything else a hyphen.
 * The portal keeps the name as typed; this one only helps someone reading the pool's console.
 */
export function appClientName(name: string): string {
  const plain = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\w\s+=,.@-]/g, '-')
    .trim();
  return (plain || 'api-client').slice(0, 128);
}

/** How long an API client's access token lasts. */
export const API_CLIENT_TOKEN_MINUTES = 60;

export function makeCognitoAppClients(client: CognitoClient, userPoolId: () => string): AppClients {
  return {
    async create({ name, scopes }) {
      const answer = await client.send(
        new CreateUserPoolClientCommand({
          UserPoolId: userPoolId(),
          ClientName: appClientName(name),
          GenerateSecret: true,
          AllowedOAuthFlows: ['client_credentials'],
          AllowedOAuthFlowsUserPoolClient: true,
          AllowedOAuthScopes: scopes.map(fullScope),
          SupportedIdentityProviders: ['COGNITO'],
          AccessTokenValidity: API_CLIENT_TOKEN_MINUTES,
          TokenValidityUnits: { AccessToken: 'minutes' },
          EnableTokenRevocation: true,
          PreventUserExistenceErrors: 'ENABLED',
        }),
      );
      const created = answer.UserPoolClient;
      if (!created?.ClientId || !created.ClientSecret)
        throw new Error('Cognito created the app client without a secret');
      return { clientId: created.ClientId, clientSecret: created.ClientSecret };
    },
    async delete(clientId) {
      try {
        await client.send(new DeleteUserPoolClientCommand({ UserPoolId: userPoolId(), ClientId: clientId }));
      } catch (error) {
        if (error instanceof ResourceNotFoundException) return;
        throw error;
      }
    },
  };
}

/** The pool's app clients through the SDK client built once per cold start (cognitoDirectoryFromEnv's endpoint). */
export function cognitoAppClientsFromEnv(): AppClients {
  const client = telemetry.instrumentClient(new CognitoIdentityProviderClient({}));
  return makeCognitoAppClients(client, () => {
    const userPoolId = process.env[RUNTIME_ENV.userPoolId];
    if (!userPoolId) throw new Error(`${RUNTIME_ENV.userPoolId} must be set`);
    return userPoolId;
  });
}
