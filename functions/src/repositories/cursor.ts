import { BadRequestError } from '@portal/shared';

type Key = Record<string, string>;

/** Longest key attribute a cursor may carry: DynamoDB key values are at most 1 KB (sort) and 2 KB (partition). */
const MAX_KEY_VALUE_LENGTH = 1024;

const invalidCursor = () => new BadRequestError('ERROR_INVALID_CURSOR');

/** Every cursor is base64url JSON; the envelope is written and read only here. */
function encode(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

function decode(cursor: string): unknown {
  try {
    return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
}

const isKeyValue = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= MAX_KEY_VALUE_LENGTH;

/**
 * Opaque page cursors: the LastEvaluatedKey, base64url-encoded with the partition it belongs to.
 * A cursor is accepted only for the same index and partition, and only with string key attributes,
 * so a crafted cursor cannot reach another tenant's partition.
 */
export function encodeCursor(scope: string, key: Key | undefined): string | null {
  if (!key) return null;
  return encode({ s: scope, k: key });
}

export function decodeCursor(
  scope: string,
  cursor: string | undefined,
  allowedAttributes: readonly string[],
): Key | undefined {
  if (cursor === undefined) return undefined;
  const { s, k } = (decode(cursor) ?? {}) as { s?: unknown; k?: unknown };
  if (s !== scope || typeof k !== 'object' || k === null) throw invalidCursor();
  const entries = Object.entries(k);
  const valid =
    entries.length === allowedAttributes.length &&
    entries.every(([name, value]) => allowedAttributes.includes(name) && typeof value === 'string');
  if (!valid) throw invalidCursor();
  return k as Key;
}

/**
 * Where one partition of a merged listing stands: `null` before its first item, `'done'` once
 * exhausted, else the key of the last item consumed from it as [pk, sk, index sort key]. The index
 * partition key is not stored: the plan the cursor was made for names it.
 */
export type PartitionPosition = null | 'done' | readonly [pk: string, sk: string, indexSortKey: string];

/**
 * A cursor over several partitions read together (a status list, a type list), or one partition of a
 * filtered listing. `fingerprint` identifies the listing: the normalized filter and the caller's tenant
 * scope. A cursor is refused unless it was made for the same fingerprint and the same number of
 * partitions, with positions of the expected shape.
 */
export function encodeMergedCursor(fingerprint: string, positions: readonly PartitionPosition[]): string | null {
  if (positions.every((position) => position === 'done')) return null;
  return encode({ v: 1, f: fingerprint, p: positions });
}

export function decodeMergedCursor(
  fingerprint: string,
  partitions: number,
  cursor: string | undefined,
): PartitionPosition[] | undefined {
  if (cursor === undefined) return undefined;
  const { v, f, p } = (decode(cursor) ?? {}) as { v?: unknown; f?: unknown; p?: unknown };
  if (v !== 1 || f !== fingerprint || !Array.isArray(p) || p.length !== partitions) throw invalidCursor();
  const positions: unknown[] = p;
  const valid = positions.every(
    (position) =>
      position === null ||
      position === 'done' ||
      (Array.isArray(position) && position.length === 3 && position.every(isKeyValue)),
  );
  if (!valid || positions.every((position) => position === 'done')) throw invalidCursor();
  return positions as PartitionPosition[];
}
