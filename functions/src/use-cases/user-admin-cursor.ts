import { BadRequestError } from '@portal/shared';

const invalidCursor = () => new BadRequestError('ERROR_INVALID_CURSOR');
const MAX_POSITION_LENGTH = 3000;

/**
 * The cursor of a user listing: base64url JSON naming the listing it belongs to (`scope`: the kind of
 * listing and its query) and where it stands there — Cognito's PaginationToken, or the supplier
 * directory's own cursor. It is accepted only by the same listing.
 */
export function encodeUserCursor(scope: string, position: string | null): string | null {
  if (position === null) return null;
  return Buffer.from(JSON.stringify({ v: 1, s: scope, p: position }), 'utf8').toString('base64url');
}

export function decodeUserCursor(scope: string, cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  const { v, s, p } = (parsed ?? {}) as { v?: unknown; s?: unknown; p?: unknown };
  if (v !== 1 || s !== scope || typeof p !== 'string' || p.length === 0 || p.length > MAX_POSITION_LENGTH) {
    throw invalidCursor();
  }
  return p;
}
