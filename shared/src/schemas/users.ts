import * as z from 'zod/mini';
import { Level } from '../domain.js';
import { TEXT_LIMITS } from '../limits.js';
import { ERROR_CODES, type ErrorCode } from '../errors/catalogue.js';
import { IsoDateTime, PageQuery, QueryBoolean, Ruc } from './common.js';

// User administration: accounts, bulk changes and the audit log, with their requests.

/**
 * Cognito's account states (UserStatusType) with the Spanish label the user screens show. The schemas
 * accept any string: a state Cognito adds later must not break a listing.
 */
export const USER_STATUS_LABELS: Readonly<Record<string, string>> = {
  CONFIRMED: 'Activo',
  FORCE_CHANGE_PASSWORD: 'Invitación pendiente',
  RESET_REQUIRED: 'Debe restablecer su contraseña',
  EXTERNAL_PROVIDER: 'Cuenta corporativa',
  UNCONFIRMED: 'Sin confirmar',
  COMPROMISED: 'Comprometido',
  ARCHIVED: 'Archivado',
  UNKNOWN: 'Desconocido',
};

/**
 * A staff account (spec §3 "Internal user"): a corporate SSO user of the pool. `taxId` is its comma
 * list of companies, `companyName` their names in the same order, comma-separated.
 */
export const InternalUser = z.object({
  id: z.string(),
  taxId: z.nullable(z.string()),
  firstName: z.string(),
  lastName: z.string(),
  role: Level,
  companyName: z.nullable(z.string()),
  email: z.string(),
  /** False once an administrator disabled the account: it cannot sign in. */
  enabled: z.boolean(),
  /** Cognito's account state (see USER_STATUS_LABELS), e.g. FORCE_CHANGE_PASSWORD until the first sign-in. */
  status: z.string(),
  createdAt: z.nullable(IsoDateTime),
});
export type InternalUser = z.infer<typeof InternalUser>;

/** A supplier account (spec §3 "External user"): `companyName` is the business name of its RUC. */
export const ExternalUser = z.extend(InternalUser, { canReceiveEmails: z.boolean() });
export type ExternalUser = z.infer<typeof ExternalUser>;

/** A supplier account just created: whether its invitation e-mail left (else: reset-password sends another). */
export const CreatedExternalUser = z.extend(ExternalUser, { invitationSent: z.boolean() });
export type CreatedExternalUser = z.infer<typeof CreatedExternalUser>;

/** How a password reset reached the supplier: a code from Cognito, or a new invitation with a temporary password. */
export const PASSWORD_RESET_DELIVERIES = ['RESET_CODE', 'INVITATION'] as const;
export const PasswordResetResult = z.object({
  delivery: z.enum(PASSWORD_RESET_DELIVERIES),
  message: z.string(),
});
export type PasswordResetResult = z.infer<typeof PasswordResetResult>;

/** One account of a bulk change: a failure names its code, and the others go on. */
export const BulkUserResult = z.object({
  userId: z.string(),
  ok: z.boolean(),
  /** `code` null: an unexpected failure (logged with the txId), as in spec §8's display rule. */
  error: z.optional(
    z.object({ code: z.nullable(z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]])), message: z.string() }),
  ),
});
export type BulkUserResult = z.infer<typeof BulkUserResult>;

export const AUDIT_ACTIONS = [
  'USER_CREATED',
  'PASSWORD_RESET_STARTED',
  'INVITATION_RESENT',
  'USER_DISABLED',
  'USER_ENABLED',
  'CLIENT_ASSIGNED',
  'CLIENT_UNASSIGNED',
  'EMAIL_NOTIFICATIONS_CHANGED',
  'API_CLIENT_CREATED',
  'API_CLIENT_REVOKED',
] as const;
export const AuditAction = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof AuditAction>;

export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  USER_CREATED: 'Creación de usuario',
  PASSWORD_RESET_STARTED: 'Restablecimiento de contraseña',
  INVITATION_RESENT: 'Reenvío de invitación',
  USER_DISABLED: 'Usuario deshabilitado',
  USER_ENABLED: 'Usuario habilitado',
  CLIENT_ASSIGNED: 'Sociedad asignada',
  CLIENT_UNASSIGNED: 'Sociedad retirada',
  EMAIL_NOTIFICATIONS_CHANGED: 'Recepción de correos',
  API_CLIENT_CREATED: 'Cliente de API creado',
  API_CLIENT_REVOKED: 'Cliente de API revocado',
};

/** The attributes an administration change touched, as they were before and after it. */
export const AuditValues = z.record(z.string(), z.union([z.string(), z.boolean(), z.null()]));
export type AuditValues = z.infer<typeof AuditValues>;

/** One change made by an administrator: who, when, to whom, what it was and what it became. */
export const AuditEvent = z.object({
  id: z.string(),
  occurredAt: IsoDateTime,
  action: AuditAction,
  actor: z.object({ id: z.string(), email: z.string() }),
  target: z.object({ userId: z.string(), email: z.string() }),
  before: z.nullable(AuditValues),
  after: z.nullable(AuditValues),
  txId: z.string(),
});
export type AuditEvent = z.infer<typeof AuditEvent>;

/** A Cognito Username (the API's userId): Cognito's own pattern, letters, marks, symbols, digits, punctuation. */
const UserId = z
  .string()
  .check(z.regex(/^[\p{L}\p{M}\p{S}\p{N}\p{P}]{1,128}$/u, 'no es un identificador de usuario válido'));
export const UserPath = z.object({ userId: UserId });

/** User listings page through Cognito: their cursor wraps Cognito's PaginationToken, hence the longer bound. */
const UserPageQuery = z.extend(PageQuery, {
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(TEXT_LIMITS.userCursor))),
});

/** Suppliers' accounts: an e-mail prefix (with '@'), a RUC prefix (digits) or a business-name prefix. */
export const ExternalUsersQuery = z.extend(UserPageQuery, {
  query: z.optional(z.string().check(z.trim(), z.maxLength(TEXT_LIMITS.search))),
});
export const InternalUsersQuery = UserPageQuery;
export const AssignClientQuery = z.object({ client: Ruc });
export const WhitelistQuery = z.object({ include: QueryBoolean });

/** A supplier's account, created by an administrator; the RUC's check digit is verified by the use case. */
export const CreateExternalUserBody = z.object({
  email: z.pipe(
    z.string().check(z.trim(), z.toLowerCase()),
    z.email('no es un correo electrónico válido').check(z.maxLength(TEXT_LIMITS.email)),
  ),
  firstName: z.string().check(z.trim(), z.minLength(1), z.maxLength(TEXT_LIMITS.personName)),
  lastName: z.string().check(z.trim(), z.minLength(1), z.maxLength(TEXT_LIMITS.personName)),
  taxId: Ruc,
  /** The supplier's business name: kept in the supplier directory when the RUC is new to it. */
  businessName: z.string().check(z.trim(), z.minLength(1), z.maxLength(TEXT_LIMITS.partyName)),
  canReceiveEmails: z._default(z.boolean(), true),
});

/** Turns e-mail reception on or off for many supplier accounts at once (Suppliers screen, spec §2). */
export const WhitelistBulkBody = z.object({
  userIds: z.array(UserId).check(
    z.minLength(1),
    z.maxLength(100),
    z.refine((ids) => new Set(ids).size === ids.length, 'no debe repetir usuarios'),
  ),
});

/** The administration log, newest first; `userId` narrows it to the changes made to one account. */
export const AuditEventsQuery = z.extend(PageQuery, { userId: z.optional(UserId) });
