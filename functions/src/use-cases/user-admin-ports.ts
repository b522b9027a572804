import type { AuditEvent } from '@portal/shared';
import type { Recipient } from '../repositories/notifications.js';

/** An account of the user pool (Cognito is their source of truth), as the administration reads it. */
export interface DirectoryUser {
  /** Cognito's Username: the sub of a password user, the provider-prefixed name of a federated one. */
  readonly id: string;
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
  /** The companies (staff) or the RUC (supplier) of custom:taxId. */
  readonly taxIds: readonly string[];
  /** The corporate groups a federated user's identity provider sent, in its order. */
  readonly groups: readonly string[];
  /** Signed in through corporate SSO: known only by Cognito's `identities` attribute. */
  readonly federated: boolean;
  /** custom:emailNotifications; an account without the attribute receives e-mail. */
  readonly emailNotifications: boolean;
  readonly enabled: boolean;
  /** Cognito's UserStatus: CONFIRMED, FORCE_CHANGE_PASSWORD, RESET_REQUIRED, EXTERNAL_PROVIDER… */
  readonly status: string;
  readonly createdAt: string | null;
}

/** Cognito answers at most 60 users per ListUsers page. */
export const MAX_DIRECTORY_PAGE = 60;

export interface DirectoryPage {
  readonly users: DirectoryUser[];
  /** Cognito's PaginationToken; null on the last page. */
  readonly nextToken: string | null;
}

export interface NewSupplierAccount {
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly taxIds: readonly string[];
  readonly emailNotifications: boolean;
  readonly temporaryPassword: string;
}

/** The user pool, as the administration uses it (adapters/cognito.ts). */
export interface UserDirectory {
  /**
   * One page of the pool, at most `limit` accounts (Cognito's own cap is 60); `email` keeps only that
   * address, `emailPrefix` the addresses that start with it.
   */
  listUsers(request: {
    readonly limit: number;
    readonly token?: string | undefined;
    readonly email?: string;
    readonly emailPrefix?: string | undefined;
  }): Promise<DirectoryPage>;
  /** By Username (an e-mail also finds its account); null when there is none. */
  getUser(userId: string): Promise<DirectoryUser | null>;
  /** Creates the account with a temporary password and no message from Cognito; the portal sends the invitation. */
  createUser(account: NewSupplierAccount): Promise<DirectoryUser>;
  /** Changes the attributes given; an empty taxId list removes the attribute. */
  updateUser(
    userId: string,
    change: { readonly taxIds?: readonly string[]; readonly emailNotifications?: boolean },
  ): Promise<void>;
  /** A new temporary password: the account must choose its own at the next sign-in. */
  setTemporaryPassword(userId: string, password: string): Promise<void>;
  /** Cognito e-mails the account a code to choose a new password (ForgotPassword). */
  startPasswordReset(userId: string): Promise<void>;
  disable(userId: string): Promise<void>;
  enable(userId: string): Promise<void>;
  /** Revokes every refresh token of the account (AdminUserGlobalSignOut): no session of it renews again. */
  signOut(userId: string): Promise<void>;
}

/** One account of a RUC's account index (RECIPIENTS#{taxId}). */
export type AccountEntry = Recipient;

/**
 * What one administration change writes to DynamoDB after Cognito accepted it: the account-index items
 * to put and to remove, and the audit event, together in one transaction.
 */
export interface AccountChange {
  readonly put: readonly { readonly taxId: string; readonly entry: AccountEntry }[];
  readonly remove: readonly { readonly taxId: string; readonly userId: string }[];
  readonly audit: AuditEvent | null;
  /**
   * An account entering (disabled) or leaving the list of disabled accounts the API refuses
   * (repositories/disabled-users.ts), written with the audit event.
   */
  readonly access?: { readonly userId: string; readonly disabled: boolean };
}
