import { formatErrorMessage, type ErrorCode } from './catalogue.js';

export interface ErrorItem {
  code: ErrorCode;
  parameters: Record<string, unknown>;
}

/**
 * A failure a caller can act on. Thrown anywhere, mapped to the error body in exactly one place
 * (the HTTP wrapper) with instanceof; its message is the catalogue's Spanish text.
 */
export class PortalError extends Error {
  readonly statusCode: number;
  readonly errors: ErrorItem[];
  /** HTTP headers the answer carries besides the usual ones (a 429's Retry-After). */
  readonly headers: Readonly<Record<string, string>> = {};

  constructor(statusCode: number, code: ErrorCode, parameters: Record<string, unknown> = {}, more: ErrorItem[] = []) {
    super(formatErrorMessage(code, parameters));
    this.name = new.target.name;
    this.statusCode = statusCode;
    this.errors = [{ code, parameters }, ...more];
  }

  get code(): ErrorCode {
    // The constructor always puts one item first.
    return this.errors[0]!.code;
  }
}

export class BadRequestError extends PortalError {
  constructor(code: ErrorCode, parameters: Record<string, unknown> = {}, more: ErrorItem[] = []) {
    super(400, code, parameters, more);
  }
}

export class UnauthorizedError extends PortalError {
  constructor(code: ErrorCode = 'ERROR_UNAUTHORIZED') {
    super(401, code);
  }
}

export class ForbiddenError extends PortalError {
  constructor(code: ErrorCode = 'ERROR_FORBIDDEN', parameters: Record<string, unknown> = {}) {
    super(403, code, parameters);
  }
}

export class NotFoundError extends PortalError {
  constructor(code: ErrorCode, parameters: Record<string, unknown> = {}) {
    super(404, code, parameters);
  }
}

export class ConflictError extends PortalError {
  constructor(code: ErrorCode, parameters: Record<string, unknown> = {}) {
    super(409, code, parameters);
  }
}

/** 429: an API client went past its calls per window; Retry-After says in how many seconds the next window opens. */
export class TooManyRequestsError extends PortalError {
  override readonly headers: Readonly<Record<string, string>>;

  constructor(retryAfterSeconds: number, limit: number) {
    super(429, 'ERROR_API_CLIENT_RATE_LIMITED', { limit, retryAfter: retryAfterSeconds });
    this.headers = { 'retry-after': String(retryAfterSeconds) };
  }
}
