import { BUCKETS, RUNTIME_ENV } from '@portal/shared';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import {
  AwsRequestError,
  callAws,
  encodePath,
  environmentCredentials,
  lambdaEnvironment,
  presignUrl,
  stringSigner,
  type AwsService,
} from './aws-rest.js';

/**
 * The documents bucket, reached with SigV4-signed REST calls (aws-rest.ts) instead of the S3 client: the
 * five operations below are all the functions need, and the client would be 40% of their bundle.
 */
export interface S3Bucket {
  readonly name: string;
  readonly region: string;
  readonly credentials: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  /** An endpoint of our own (AWS_ENDPOINT_URL_S3: s3rver on the local stage); AWS's regional one when absent. */
  readonly endpoint?: string;
  /** `<endpoint>/<bucket>/<key>` instead of `<bucket>.<endpoint>/<key>` (s3rver knows only this one). */
  readonly pathStyle: boolean;
}

/** The documents bucket as the functions' environment describes it (read once per cold start). */
export function documentsBucketFromEnv(env: NodeJS.ProcessEnv = process.env): S3Bucket {
  const name = env[BUCKETS.documents.env];
  if (!name) throw new Error(`${BUCKETS.documents.env} is not set`);
  return {
    name,
    region: lambdaEnvironment(env).region,
    credentials: environmentCredentials,
    endpoint: env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined,
    pathStyle: env[RUNTIME_ENV.s3ForcePathStyle] === 'true',
  };
}

/** What HeadObject tells of a stored file. */
export interface StoredFileInfo {
  readonly size: number;
  readonly contentType: string | null;
  /** User-defined metadata (x-amz-meta-*), names in lower case without the prefix. */
  readonly metadata: Readonly<Record<string, string>>;
}

export interface PostPolicy {
  readonly key: string;
  /** Exact Content-Type the form must send. */
  readonly contentType: string;
  readonly maxBytes: number;
  readonly expiresInSeconds: number;
  /** Stored as x-amz-meta-<name>; each becomes an exact condition of the policy. */
  readonly metadata: Readonly<Record<string, string>>;
}

export interface GetLink {
  readonly key: string;
  readonly expiresInSeconds: number;
  readonly contentDisposition: string;
  readonly contentType?: string;
}

/** The documents bucket as the use cases see it: presigned links in and out, and a look at what arrived. */
export interface DocumentFiles {
  presignPost(policy: PostPolicy): Promise<{ url: string; fields: Record<string, string> }>;
  presignGet(link: GetLink): Promise<string>;
  /** Null when there is no such object. */
  head(key: string): Promise<StoredFileInfo | null>;
  /** Bytes [0, length) of the object (fewer if it is shorter); null when there is no such object. */
  readStart(key: string, length: number): Promise<Uint8Array | null>;
  delete(key: string): Promise<void>;
}

const META_PREFIX = 'x-amz-meta-';

/** S3 policies and dates: ISO 8601 without milliseconds. */
const iso8601 = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Reads at most `length` bytes of a body, then lets the rest go (a server may ignore Range). */
async function readAtMost(body: ReadableStream<Uint8Array> | null, length: number): Promise<Uint8Array> {
  if (!body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = body.getReader();
  while (total < length) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    total += value.length;
  }
  if (total >= length) await reader.cancel();
  const bytes = new Uint8Array(Math.min(total, length));
  let offset = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.length - offset);
    bytes.set(part, offset);
    offset += part.length;
    if (offset === bytes.length) break;
  }
  return bytes;
}

export function makeDocumentFiles(bucket: S3Bucket, clock: () => Date = () => new Date()): DocumentFiles {
  const service: AwsService = {
    signingName: 's3',
    region: bucket.region,
    credentials: bucket.credentials,
    endpoint: bucket.pathStyle
      ? (bucket.endpoint ?? `https://s3.${bucket.region}.amazonaws.com`)
      : bucket.endpoint
        ? bucket.endpoint.replace('://', `://${bucket.name}.`)
        : `https://${bucket.name}.s3.${bucket.region}.amazonaws.com`,
  };
  const objectPath = (key: string) => (bucket.pathStyle ? encodePath(bucket.name, key) : encodePath(key));
  const bucketUrl = bucket.pathStyle ? `${service.endpoint}${encodePath(bucket.name)}` : `${service.endpoint}/`;

  return {
    async presignPost(policy) {
      const now = clock();
      const signed = await stringSigner(service, now);
      const fields: Record<string, string> = {
        'Content-Type': policy.contentType,
        ...Object.fromEntries(Object.entries(policy.metadata).map(([name, value]) => [`${META_PREFIX}${name}`, value])),
        bucket: bucket.name,
        'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
        'X-Amz-Credential': signed.credential,
        'X-Amz-Date': signed.amzDate,
        ...(signed.sessionToken ? { 'X-Amz-Security-Token': signed.sessionToken } : {}),
      };
      // Every field is an exact condition; the key, its type and its size are stated as well.
      const conditions: unknown[] = [
        { bucket: bucket.name },
        ['eq', '$key', policy.key],
        ['eq', '$Content-Type', policy.contentType],
        ['content-length-range', 1, policy.maxBytes],
        ...Object.entries(fields)
          .filter(([name]) => name !== 'bucket')
          .map(([name, value]) => ({ [name]: value })),
        { key: policy.key },
      ];
      const expiration = new Date(now.getTime() + policy.expiresInSeconds * 1000);
      const encodedPolicy = Buffer.from(JSON.stringify({ expiration: iso8601(expiration), conditions })).toString(
        'base64',
      );
      const signature = await signed.sign(encodedPolicy);
      return {
        url: bucketUrl,
        fields: { ...fields, key: policy.key, Policy: encodedPolicy, 'X-Amz-Signature': signature },
      };
    },

    presignGet(link) {
      return presignUrl(
        service,
        {
          method: 'GET',
          path: objectPath(link.key),
          query: {
            'response-content-disposition': link.contentDisposition,
            ...(link.contentType ? { 'response-content-type': link.contentType } : {}),
          },
        },
        link.expiresInSeconds,
        clock(),
      );
    },

    async head(key) {
      // HeadObject has no body: a missing object (or bucket) is a bare 404.
      const response = await callAws(service, {
        operation: 'HeadObject',
        method: 'HEAD',
        path: objectPath(key),
        accept: [404],
      });
      if (response.status === 404) return null;
      const metadata: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        if (name.startsWith(META_PREFIX)) metadata[name.slice(META_PREFIX.length)] = value;
      });
      return {
        size: Number(response.headers.get('content-length') ?? 0),
        contentType: response.headers.get('content-type'),
        metadata,
      };
    },

    async readStart(key, length) {
      if (length <= 0) return new Uint8Array(0);
      const operation = 'GetObject';
      const response = await callAws(service, {
        operation,
        method: 'GET',
        path: objectPath(key),
        headers: { range: `bytes=0-${length - 1}` },
        accept: [404, 416],
      });
      // An empty object cannot satisfy any range.
      if (response.status === 416) return new Uint8Array(0);
      if (response.status === 404) {
        const body = await response.text();
        const code = /<Code>([^<]+)<\/Code>/.exec(body)?.[1] ?? null;
        if (code === 'NoSuchKey' || code === null) return null;
        throw new AwsRequestError('s3', operation, 404, code, response.headers.get('x-amz-request-id'), '');
      }
      return readAtMost(response.body, length);
    },

    async delete(key) {
      await callAws(service, { operation: 'DeleteObject', method: 'DELETE', path: objectPath(key) });
    },
  };
}
