import { CLIENT_MESSAGES, ERROR_MESSAGES, formatErrorMessage, type ErrorCode } from '@portal/shared';
import { messages } from '../messages';

export interface ApiErrorDetail {
  readonly code: string | null;
  readonly parameters: Readonly<Record<string, unknown>>;
}

/**
 * A call that failed. `status` is the HTTP status, or 0 when no answer arrived (network failure,
 * timeout). The other fields come from the API's error body {statusCode, message, txId, errors}.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly routeId: string;
  readonly txId: string | null;
  readonly errors: readonly ApiErrorDetail[];
  readonly timedOut: boolean;

  constructor(input: {
    status: number;
    routeId: string;
    message: string;
    txId?: string | null;
    errors?: readonly ApiErrorDetail[];
    timedOut?: boolean;
    cause?: unknown;
  }) {
    super(input.message, { cause: input.cause });
    this.status = input.status;
    this.routeId = input.routeId;
    this.txId = input.txId ?? null;
    this.errors = input.errors ?? [];
    this.timedOut = input.timedOut ?? false;
  }

  /** The first error code of the body, if any. */
  get code(): string | null {
    return this.errors[0]?.code ?? null;
  }
}

/** No signed-in user: there is no ID token to send. */
export class SessionMissingError extends Error {
  override readonly name = 'SessionMissingError';
  constructor() {
    super(CLIENT_MESSAGES.sessionMissing);
  }
}

/** The identity service could not hand out a token (refresh failed, network). */
export class TokenError extends Error {
  override readonly name = 'TokenError';
  constructor(cause: unknown) {
    super(CLIENT_MESSAGES.tokenFailure, { cause });
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads the API's error body leniently: an unknown code or missing field must not hide the status. */
export function parseErrorBody(body: unknown): {
  message: string | null;
  txId: string | null;
  errors: ApiErrorDetail[];
} {
  if (!isRecord(body)) return { message: null, txId: null, errors: [] };
  const errors = Array.isArray(body.errors)
    ? body.errors.filter(isRecord).map((entry) => ({
        code: typeof entry.code === 'string' ? entry.code : null,
        parameters: isRecord(entry.parameters) ? entry.parameters : {},
      }))
    : [];
  return {
    message: typeof body.message === 'string' ? body.message : null,
    txId: typeof body.txId === 'string' ? body.txId : null,
    errors,
  };
}

function isCatalogued(code: string | null): code is ErrorCode {
  return code !== null && Object.hasOwn(ERROR_MESSAGES, code);
}

/**
 * The one display rule of spec §8: the first error code looked up in the catalogue; a 400 without
 * codes asks to fill every field; anything else is unexpected. The transaction id is appended.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    const first = error.errors[0];
    let text: string;
    if (first && isCatalogued(first.code)) text = formatErrorMessage(first.code, first.parameters);
    else if (error.status === 400 && error.errors.length === 0) text = CLIENT_MESSAGES.fillAllFields;
    else text = CLIENT_MESSAGES.unexpected;
    return error.txId ? `${text} ${messages.errors.transactionSuffix(error.txId)}` : text;
  }
  if (error instanceof SessionMissingError) return CLIENT_MESSAGES.sessionMissing;
  if (error instanceof TokenError) return CLIENT_MESSAGES.tokenFailure;
  return CLIENT_MESSAGES.unexpected;
}
