import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { createPresignedPost, type PresignedPostOptions } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { BUCKETS, RUNTIME_ENV } from '@portal/shared';
import { tracer } from '../http/tracer.js';

/**
 * Built once per cold start. Endpoint, region and credentials come from the SDK's own environment
 * (AWS_ENDPOINT_URL_S3 on the local stage); only path-style addressing, which s3rver needs, is ours.
 */
export const s3Client = tracer.captureAWSv3Client(
  new S3Client({ forcePathStyle: process.env[RUNTIME_ENV.s3ForcePathStyle] === 'true' }),
);

export function documentsBucket(): string {
  const name = process.env[BUCKETS.documents.env];
  if (!name) throw new Error(`${BUCKETS.documents.env} is not set`);
  return name;
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

function isMissing(error: unknown): boolean {
  if (error instanceof NoSuchKey || error instanceof NotFound) return true;
  // HeadObject has no body, so a 404 arrives without an error code the SDK can map to a class.
  return error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404;
}

export function makeDocumentFiles(client: S3Client, bucket: string): DocumentFiles {
  return {
    async presignPost(policy) {
      const metadataFields = Object.fromEntries(
        Object.entries(policy.metadata).map(([name, value]) => [`x-amz-meta-${name}`, value]),
      );
      // Every field becomes an exact ({field: value}) condition; key and bucket are added by the library.
      const options: PresignedPostOptions = {
        Bucket: bucket,
        Key: policy.key,
        Expires: policy.expiresInSeconds,
        Fields: { 'Content-Type': policy.contentType, ...metadataFields },
        Conditions: [
          { bucket },
          ['eq', '$key', policy.key],
          ['eq', '$Content-Type', policy.contentType],
          ['content-length-range', 1, policy.maxBytes],
        ],
      };
      const post = await createPresignedPost(client, options);
      return { url: post.url, fields: post.fields };
    },

    presignGet(link) {
      return getSignedUrl(
        client,
        new GetObjectCommand({
          Bucket: bucket,
          Key: link.key,
          ResponseContentDisposition: link.contentDisposition,
          ResponseContentType: link.contentType,
        }),
        { expiresIn: link.expiresInSeconds },
      );
    },

    async head(key) {
      try {
        const result = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
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
        const result = await client.send(
          new GetObjectCommand({ Bucket: bucket, Key: key, Range: `bytes=0-${length - 1}` }),
        );
        if (!result.Body) return new Uint8Array(0);
        const bytes = await result.Body.transformToByteArray();
        // A server that ignores Range must not make the caller hold more than it asked for.
        return bytes.length > length ? bytes.subarray(0, length) : bytes;
      } catch (error) {
        if (isMissing(error)) return null;
        // An empty object cannot satisfy any range.
        if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 416) return new Uint8Array(0);
        throw error;
      }
    },

    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
  };
}
