import { randomUUID } from 'node:crypto';
import {
  InvalidParameterException,
  LimitExceededException,
  ResourceNotFoundException,
  UserNotFoundException,
  UsernameExistsException,
  type AttributeType,
} from '@aws-sdk/client-cognito-identity-provider';
import type { CognitoClient } from './cognito.js';

/** A user of the in-memory pool, as Cognito keeps it. */
export interface FakePoolUser {
  Username: string;
  Attributes: AttributeType[];
  Enabled: boolean;
  UserStatus: string;
  UserCreateDate: Date;
  Password?: string;
}

const metadata = { $metadata: {} };

/** The fields of the commands the fake answers; each command sends its own. */
interface CommandInput {
  readonly Username: string;
  readonly Filter?: string;
  readonly PaginationToken?: string;
  readonly Limit?: number;
  readonly UserAttributes?: AttributeType[];
  readonly UserAttributeNames?: string[];
  readonly TemporaryPassword?: string;
  readonly Password?: string;
  readonly Permanent?: boolean;
  readonly ClientName?: string;
  readonly ClientId?: string;
  readonly GenerateSecret?: boolean;
}

/** One fake pool's state: its users, the app clients, who was signed out, and how it is set to fail. */
interface FakePool {
  readonly users: FakePoolUser[];
  readonly signedOut: string[];
  readonly appClients: Map<string, { ClientName: string; ClientSecret: string | undefined }>;
  readonly options: { limitExceeded?: boolean };
}

const attributeOf = (user: FakePoolUser, name: string) => user.Attributes.find((a) => a.Name === name)?.Value;

// Sign-in by e-mail is case-insensitive (the pool's setting); ListUsers filters compare exactly.
const findUser = (users: readonly FakePoolUser[], username: string) =>
  users.find(
    (user) => user.Username === username || attributeOf(user, 'email')?.toLowerCase() === username.toLowerCase(),
  );

function existingUser(users: readonly FakePoolUser[], username: string): FakePoolUser {
  const user = findUser(users, username);
  if (!user) throw new UserNotFoundException({ message: 'User does not exist.', ...metadata });
  return user;
}

const userResponse = (user: FakePoolUser) => ({
  Username: user.Username,
  Attributes: user.Attributes.map((a) => ({ ...a })),
  Enabled: user.Enabled,
  UserStatus: user.UserStatus,
  UserCreateDate: user.UserCreateDate,
});

/** The commands the fake answers, by Cognito operation name, on one pool's state. */
function poolHandlers(pool: FakePool): Record<string, (input: CommandInput) => unknown> {
  const { users, signedOut, options } = pool;
  const find = (username: string) => findUser(users, username);
  const existing = (username: string) => existingUser(users, username);
  const handlers: Record<string, (input: CommandInput) => unknown> = {
    ListUsers(input) {
      const filter = /^(\w+) (\^?=) "(.*)"$/.exec(input.Filter ?? '');
      const matching = users.filter((user) => {
        if (!filter) return true;
        const value = attributeOf(user, filter[1]!) ?? '';
        return filter[2] === '=' ? value === filter[3] : value.startsWith(filter[3]!);
      });
      const start = input.PaginationToken === undefined ? 0 : Number(input.PaginationToken);
      if (!Number.isInteger(start)) {
        throw new InvalidParameterException({ message: 'Invalid pagination token', ...metadata });
      }
      const end = start + (input.Limit ?? 60);
      return {
        Users: matching.slice(start, end).map(userResponse),
        PaginationToken: end < matching.length ? String(end) : undefined,
      };
    },
    AdminGetUser(input) {
      const user = existing(input.Username);
      const { Attributes, ...rest } = userResponse(user);
      return { ...rest, UserAttributes: Attributes };
    },
    AdminCreateUser(input) {
      if (find(input.Username)) throw new UsernameExistsException({ message: 'User already exists', ...metadata });
      const sub = randomUUID();
      const user: FakePoolUser = {
        Username: sub,
        Attributes: [{ Name: 'sub', Value: sub }, ...(input.UserAttributes ?? [])],
        Enabled: true,
        UserStatus: 'FORCE_CHANGE_PASSWORD',
        UserCreateDate: new Date('2026-11-20T10:00:00Z'),
        Password: input.TemporaryPassword,
      };
      users.push(user);
      return { User: userResponse(user) };
    },
    AdminUpdateUserAttributes(input) {
      const user = existing(input.Username);
      for (const change of input.UserAttributes ?? []) {
        user.Attributes = [...user.Attributes.filter((a) => a.Name !== change.Name), change];
      }
      return {};
    },
    AdminDeleteUserAttributes(input) {
      const user = existing(input.Username);
      user.Attributes = user.Attributes.filter((a) => !(input.UserAttributeNames ?? []).includes(a.Name ?? ''));
      return {};
    },
    AdminSetUserPassword(input) {
      const user = existing(input.Username);
      user.Password = input.Password;
      user.UserStatus = input.Permanent ? 'CONFIRMED' : 'FORCE_CHANGE_PASSWORD';
      return {};
    },
    AdminDisableUser(input) {
      existing(input.Username).Enabled = false;
      return {};
    },
    AdminEnableUser(input) {
      existing(input.Username).Enabled = true;
      return {};
    },
    AdminUserGlobalSignOut(input) {
      existing(input.Username);
      signedOut.push(input.Username);
      return {};
    },
    ForgotPassword(input) {
      if (options.limitExceeded) {
        throw new LimitExceededException({
          message: 'Attempt limit exceeded, please try after some time.',
          ...metadata,
        });
      }
      existing(input.Username);
      return { CodeDeliveryDetails: { DeliveryMedium: 'EMAIL' } };
    },
  };
  handlers.CreateUserPoolClient = (input) => {
    const clientId = randomUUID().replace(/-/g, '').slice(0, 26);
    const secret = input.GenerateSecret ? randomUUID() : undefined;
    pool.appClients.set(clientId, { ClientName: input.ClientName ?? '', ClientSecret: secret });
    return { UserPoolClient: { ClientId: clientId, ClientName: input.ClientName, ClientSecret: secret } };
  };
  handlers.DeleteUserPoolClient = (input) => {
    if (!pool.appClients.delete(input.ClientId ?? '')) {
      throw new ResourceNotFoundException({ message: 'User pool client does not exist.', ...metadata });
    }
    return {};
  };
  return handlers;
}

/** A user as the seed or a federated sign-in would leave it. */
function seededUser(user: {
  username?: string;
  email: string;
  firstName?: string;
  lastName?: string;
  taxId?: string;
  federated?: { groups: string[] };
  emailNotifications?: boolean;
  status?: string;
  enabled?: boolean;
}): FakePoolUser {
  const username = user.username ?? randomUUID();
  const attributes: AttributeType[] = [
    { Name: 'sub', Value: username },
    { Name: 'email', Value: user.email },
    { Name: 'given_name', Value: user.firstName ?? 'Nombre' },
    { Name: 'family_name', Value: user.lastName ?? 'Apellido' },
  ];
  if (user.taxId) attributes.push({ Name: 'custom:taxId', Value: user.taxId });
  if (user.emailNotifications !== undefined) {
    attributes.push({ Name: 'custom:emailNotifications', Value: String(user.emailNotifications) });
  }
  if (user.federated) {
    attributes.push(
      { Name: 'identities', Value: JSON.stringify([{ providerName: 'Corporativo', userId: username }]) },
      { Name: 'custom:groups', Value: JSON.stringify(user.federated.groups) },
    );
  }
  const created: FakePoolUser = {
    Username: username,
    Attributes: attributes,
    Enabled: user.enabled ?? true,
    UserStatus: user.status ?? (user.federated ? 'EXTERNAL_PROVIDER' : 'CONFIRMED'),
    UserCreateDate: new Date('2026-01-15T12:00:00Z'),
  };
  return created;
}

/**
 * An in-memory user pool answering the SDK commands the directory sends, with Cognito's paging
 * (PaginationToken, at most `Limit`), e-mail sign-in (the Username given is the e-mail, the user's
 * Username its sub) and its exceptions. `operations` records every command by Cognito operation name,
 * so that a test can compare them with what the route manifest grants.
 */
export function fakeCognito(options: { limitExceeded?: boolean } = {}) {
  const pool: FakePool = { users: [], signedOut: [], appClients: new Map(), options };
  const { users, signedOut, appClients } = pool;
  const operations: string[] = [];
  const handlers = poolHandlers(pool);

  const client = {
    async send(command: { constructor: { name: string }; input: CommandInput }) {
      const operation = command.constructor.name.replace(/Command$/, '');
      operations.push(operation);
      const handle = handlers[operation];
      if (!handle) throw new Error(`The fake pool does not answer ${operation}`);
      return handle(command.input);
    },
  } as unknown as CognitoClient;

  return {
    client,
    users,
    appClients,
    operations,
    /** Usernames whose refresh tokens AdminUserGlobalSignOut revoked, in order. */
    signedOut,
    /** Adds a user as the seed or a federated sign-in would leave it. */
    addUser(user: Parameters<typeof seededUser>[0]): FakePoolUser {
      const created = seededUser(user);
      users.push(created);
      return created;
    },
    attribute: (username: string, name: string) => {
      const user = findUser(users, username);
      return user ? attributeOf(user, name) : undefined;
    },
  };
}

export type FakeCognito = ReturnType<typeof fakeCognito>;
