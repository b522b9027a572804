import { S3Refusal } from './s3-sigv4.js';

/** The slice of s3rver's store a listing reads. */
export interface ListingStore {
  getBucket(bucket: string): Promise<unknown>;
  listObjects(
    bucket: string,
    options: { prefix?: string; delimiter?: string; startAfter?: string; maxKeys: number },
  ): Promise<{
    objects: { key: string; lastModifiedDate: Date; size: number; metadata: Record<string, string> }[];
    commonPrefixes: string[];
    isTruncated: boolean;
  }>;
}

const xmlText = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[char]!,
  );

/** S3's encoding-type=url: every character but the unreserved ones and '/', percent-encoded. */
const urlEncoded = (value: string) =>
  encodeURIComponent(value)
    .replace(/%2F/g, '/')
    .replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);

/** A continuation token of ours: opaque to the client, the bucket and the key the next page starts after. */
function tokenOf(bucket: string, key: string): string {
  return Buffer.from(JSON.stringify({ bucket, after: key }), 'utf8').toString('base64url');
}

function startAfterOf(bucket: string, token: string): string {
  try {
    const read = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { bucket?: unknown; after?: unknown };
    if (read.bucket === bucket && typeof read.after === 'string' && read.after) return read.after;
  } catch {
    // Refused below, as S3 refuses a token it did not give.
  }
  throw new S3Refusal(400, 'InvalidArgument', 'The continuation token provided is incorrect');
}

/**
 * ListObjectsV2 (GET /bucket?list-type=2), answered from s3rver's store: s3rver 3.7 makes its continuation tokens
 * with DES, which the OpenSSL 3 of Node 20 and 22 refuses, so every listing of more than a page failed with a 500.
 * Prefix, delimiter, start-after, max-keys (at most 1,000, as S3), continuation-token and encoding-type=url, as S3
 * answers them; the owner is left out, as S3 leaves it without fetch-owner.
 */
export async function listObjectsV2(store: ListingStore, bucket: string, query: URLSearchParams): Promise<string> {
  if (!(await store.getBucket(bucket))) {
    throw new S3Refusal(404, 'NoSuchBucket', 'The specified bucket does not exist');
  }
  const maxKeysParam = query.get('max-keys');
  if (maxKeysParam !== null && !/^\d+$/.test(maxKeysParam)) {
    throw new S3Refusal(400, 'InvalidArgument', 'Provided max-keys not an integer or within integer range');
  }
  const maxKeys = Math.min(1000, maxKeysParam === null ? 1000 : Number(maxKeysParam));
  const prefix = query.get('prefix') ?? '';
  const delimiter = query.get('delimiter') ?? '';
  const token = query.get('continuation-token');
  const startAfter = token ? startAfterOf(bucket, token) : (query.get('start-after') ?? '');
  const encode = query.get('encoding-type') === 'url' ? urlEncoded : (value: string) => value;

  const listed =
    maxKeys === 0
      ? { objects: [], commonPrefixes: [], isTruncated: false }
      : await store.listObjects(bucket, {
          prefix: prefix || undefined,
          delimiter: delimiter || undefined,
          startAfter: startAfter || undefined,
          maxKeys,
        });
  // The next page starts after the last key or common prefix of this one.
  const last = [listed.objects.at(-1)?.key ?? '', listed.commonPrefixes.at(-1) ?? ''].sort().at(-1)!;
  const element = (name: string, value: string | number) => `<${name}>${xmlText(String(value))}</${name}>`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">',
    element('Name', bucket),
    element('Prefix', encode(prefix)),
    ...(token ? [element('ContinuationToken', token)] : []),
    ...(!token && startAfter ? [element('StartAfter', encode(startAfter))] : []),
    element('KeyCount', listed.objects.length + listed.commonPrefixes.length),
    element('MaxKeys', maxKeysParam ?? 1000),
    ...(delimiter ? [element('Delimiter', encode(delimiter))] : []),
    ...(query.get('encoding-type') === 'url' ? [element('EncodingType', 'url')] : []),
    element('IsTruncated', String(listed.isTruncated)),
    ...(listed.isTruncated && last ? [element('NextContinuationToken', tokenOf(bucket, last))] : []),
    ...listed.objects.map((object) =>
      [
        '<Contents>',
        element('Key', encode(object.key)),
        element('LastModified', object.lastModifiedDate.toISOString()),
        element('ETag', object.metadata.etag ?? ''),
        element('Size', object.size),
        element('StorageClass', 'STANDARD'),
        '</Contents>',
      ].join(''),
    ),
    ...listed.commonPrefixes.map((common) => `<CommonPrefixes>${element('Prefix', encode(common))}</CommonPrefixes>`),
    '</ListBucketResult>',
  ].join('');
}
