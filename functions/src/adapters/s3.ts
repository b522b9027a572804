import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  NoSuchKey,
  NotFound,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { BUCKETS, FILE_LINKS_ENV, RUNTIME_ENV } from '@portal/shared';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import { telemetry } from '../observability/telemetry.js';

/**
 * The documents bucket, reached with the S3 client (each call a span of the function's trace) and the SDK's
 * presigners. Presigning makes no request: it uses a client without instrumentation, so that no span stands for a
 * call that was never made.
 */
export interface S3Bucket {
  readonly name: string;
  /** The SDK's default (AWS_REGION) when absent. */
  readonly region?: string;
  /** The SDK's default chain (in Lambda, the function role's, from the environment) when absent. */
  readonly credentials?: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  /** An endpoint of our own (s3rver on the local stage); the SDK's own (AWS_ENDPOINT_URL_S3 or AWS's) when absent. */
  readonly endpoint?: string;
  /** `<endpoint>/<bucket>/<key>` instead of `<bucket>.<endpoint>/<key>` (s3rver knows only this one). */
  readonly pathStyle: boolean;
  /**
   * Download links through the files distribution (infra constructs/files.ts): signed for the bucket's regional
   * domain (the distribution's origin), then given the distribution's origin. Absent: links go to the bucket.
   */
  readonly links?: { readonly origin: string; readonly bucketDomain: string };
}

/** The documents bucket as the functions' environment describes it (read once per cold start). */
export function documentsBucketFromEnv(env: NodeJS.ProcessEnv = process.env): S3Bucket {
  const name = env[BUCKETS.documents.env];
  if (!name) throw new Error(`${BUCKETS.documents.env} is not set`);
  const origin = env[FILE_LINKS_ENV.origin];
  const bucketDomain = env[FILE_LINKS_ENV.bucketDomain];
  return {
    name,
    pathStyle: env[RUNTIME_ENV.s3ForcePathStyle] === 'true',
    ...(origin && bucketDomain ? { links: { origin, bucketDomain } } : {}),
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
  /** Stores a file the server received itself (a zip's entry, an e-mail's attachment), replacing one at the key. */
  put(key: string, bytes: Uint8Array, contentType: string, metadata: Readonly<Record<string, string>>): Promise<void>;
}

const META_PREFIX = 'x-amz-meta-';

function isMissing(error: unknown): boolean {
  if (error instanceof NoSuchKey || error instanceof NotFound) return true;
  // HeadObject has no body, so a 404 arrives without an error code the SDK can map to a class.
  return error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404;
}

/** Reads at most `length` bytes of a body, then lets the rest go (a server may ignore Range). */
async function readAtMost(body: unknown, length: number): Promise<Uint8Array> {
  if (!(body instanceof Readable)) {
    const bytes = await (body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray();
    return bytes.subarray(0, length);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    total += chunk.length;
    if (total >= length) break;
  }
  body.destroy();
  return new Uint8Array(Buffer.concat(chunks).subarray(0, length));
}

/** A value made on first use, then kept. */
function lazily<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

/** The S3 client's configuration for a bucket. */
export function clientConfig(bucket: S3Bucket): S3ClientConfig {
  return {
    ...(bucket.region ? { region: bucket.region } : {}),
    ...(bucket.credentials ? { credentials: bucket.credentials } : {}),
    ...(bucket.endpoint ? { endpoint: bucket.endpoint } : {}),
    forcePathStyle: bucket.pathStyle,
  };
}

export function makeDocumentFiles(bucket: S3Bucket, clock: () => Date = () => new Date()): DocumentFiles {
  const config = clientConfig(bucket);
  // Each client is built when first used: a function uses one or two of them (the uploads' ticket only presigns,
  // the intake only reads and writes), and each costs its cold start some milliseconds to build.
  const client = lazily(() => telemetry.instrumentClient(new S3Client(config)));
  const presigner = lazily(() => new S3Client(config));
  // The links' signer addresses the bucket by the domain the distribution forwards to, as it is (with
  // bucketEndpoint, the SDK takes the Bucket parameter for the bucket's URL).
  const links = bucket.links;
  const linkSigner = links ? lazily(() => new S3Client({ ...config, bucketEndpoint: true })) : presigner;
  const linkBucket = links ? `https://${links.bucketDomain}` : bucket.name;
  const Bucket = bucket.name;

  return {
    async presignPost(policy) {
      const metadataFields = Object.fromEntries(
        Object.entries(policy.metadata).map(([name, value]) => [`${META_PREFIX}${name}`, value]),
      );
      // Every field becomes an exact ({field: value}) condition; the key, its type and its size are stated too.
      const post = await createPresignedPost(presigner(), {
        Bucket,
        Key: policy.key,
        Expires: policy.expiresInSeconds,
        Fields: { 'Content-Type': policy.contentType, ...metadataFields },
        Conditions: [
          { bucket: Bucket },
          ['eq', '$key', policy.key],
          ['eq', '$Content-Type', policy.contentType],
          ['content-length-range', 1, policy.maxBytes],
        ],
      });
      return { url: post.url, fields: post.fields };
    },

    async presignGet(link) {
      const url = await getSignedUrl(
        linkSigner(),
        new GetObjectCommand({
          Bucket: linkBucket,
          Key: link.key,
          ResponseContentDisposition: link.contentDisposition,
          ...(link.contentType ? { ResponseContentType: link.contentType } : {}),
        }),
        { expiresIn: link.expiresInSeconds, signingDate: clock() },
      );
      if (!links) return url;
      const signed = new URL(url);
      return `${links.origin.replace(/\/+$/, '')}${signed.pathname}${signed.search}`;
    },

    async head(key) {
      try {
        const result = await client().send(new HeadObjectCommand({ Bucket, Key: key }));
        return {
          size: result.ContentLength ?? 0,
          contentType: result.ContentType ?? null,
          metadata: result.Metadata ?? {},
        };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },

    async readStart(key, length) {
      if (length <= 0) return new Uint8Array(0);
      try {
        const result = await client().send(new GetObjectCommand({ Bucket, Key: key, Range: `bytes=0-${length - 1}` }));
        return result.Body ? await readAtMost(result.Body, length) : new Uint8Array(0);
      } catch (error) {
        if (isMissing(error)) return null;
        // An empty object cannot satisfy any range.
        if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 416) return new Uint8Array(0);
        throw error;
      }
    },

    async put(key, bytes, contentType, metadata) {
      await client().send(
        new PutObjectCommand({ Bucket, Key: key, Body: bytes, ContentType: contentType, Metadata: { ...metadata } }),
      );
    },

    async delete(key) {
      await client().send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
  };
}
