import { PassThrough } from 'node:stream';
import { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { telemetry } from '../observability/telemetry.js';
import { clientConfig, type S3Bucket } from './s3.js';

/** A stream on its way to an object: write into `stream`, then await `done`; `abort` drops the parts sent. */
export interface StreamUpload {
  readonly stream: PassThrough;
  readonly done: Promise<void>;
  abort(): Promise<void>;
}

/** Bytes buffered per part (S3's minimum part is 5 MiB); parts sent at once. Memory stays about their product. */
const PART_BYTES = 5 * 1024 * 1024;
const PARTS_AT_ONCE = 2;

/**
 * Streams objects of unknown length into the bucket with a multipart upload (@aws-sdk/lib-storage): the object
 * exists only once every part arrived and the upload completed; a failed or aborted one leaves no object (its parts
 * are aborted, and the bucket's lifecycle rule removes any left behind).
 */
export function makeStreamUploads(bucket: S3Bucket): { upload(key: string, contentType: string): StreamUpload } {
  const client = telemetry.instrumentClient(new S3Client(clientConfig(bucket)));
  return {
    upload(key, contentType) {
      const stream = new PassThrough();
      const upload = new Upload({
        client,
        params: { Bucket: bucket.name, Key: key, Body: stream, ContentType: contentType },
        partSize: PART_BYTES,
        queueSize: PARTS_AT_ONCE,
        leavePartsOnError: false,
      });
      const done = upload.done().then(() => undefined);
      // Awaited by the caller once the stream ends; until then a failure must not be an unhandled rejection.
      done.catch(() => undefined);
      return { stream, done, abort: () => upload.abort() };
    },
  };
}
