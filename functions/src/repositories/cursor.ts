import { BadRequestError } from '@portal/shared';

type Key = Record<string, string>;

/**
 * Opaque page cursors: the LastEvaluatedKey, base64url-encoded with the partition it belongs to.
 * A cursor is accepted only for the same index and partition, and only with string key attributes,
 * so a crafted cursor cannot reach another tenant's partition.
 */
export function encodeCursor(scope: string, key: Key | undefined): string | null {
  if (!key) return null;
  return Buffer.from(JSON.stringify({ s: scope, k: key }), 'utf8').toString('base64url');
}

export function decodeCursor(
  scope: string,
  cursor: string | undefined,
  allowedAttributes: readonly string[],
): Key | undefined {
  if (cursor === undefined) return undefined;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new BadRequestError('ERROR_INVALID_CURSOR');
  }
  const { s, k } = (decoded ?? {}) as { s?: unknown; k?: unknown };
  if (s !== scope || typeof k !== 'object' || k === null) throw new BadRequestError('ERROR_INVALID_CURSOR');
  const entries = Object.entries(k);
  const valid =
    entries.length === allowedAttributes.length &&
    entries.every(([name, value]) => allowedAttributes.includes(name) && typeof value === 'string');
  if (!valid) throw new BadRequestError('ERROR_INVALID_CURSOR');
  return k as Key;
}
