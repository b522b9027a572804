import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GetObjectCommand, NoSuchKey, S3Client } from '@aws-sdk/client-s3';
import { telemetry } from '../observability/telemetry.js';
import { clientConfig, type S3Bucket } from './s3.js';

/** An object copied to a file of its own under the system's temporary folder (Lambda's /tmp). */
export interface DownloadedFile {
  readonly path: string;
  /** Removes the file and its folder. */
  dispose(): Promise<void>;
}

/**
 * Streams objects of the documents bucket to local files: a zip of many documents is read from disk, not held in
 * memory. At most `maxBytes` are written (an object larger than its upload's limit is refused as an error).
 */
export function makeObjectDownloads(bucket: S3Bucket) {
  const client = telemetry.instrumentClient(new S3Client(clientConfig(bucket)));
  return {
    /** Null when there is no such object. */
    async toFile(key: string, maxBytes: number): Promise<DownloadedFile | null> {
      let body: Readable;
      try {
        const result = await client.send(new GetObjectCommand({ Bucket: bucket.name, Key: key }));
        if (!(result.Body instanceof Readable)) throw new Error('The object body is not a stream.');
        body = result.Body;
      } catch (error) {
        if (error instanceof NoSuchKey || (error as Error).name === 'NoSuchKey') return null;
        throw error;
      }
      const folder = await mkdtemp(path.join(tmpdir(), 'object-'));
      const file = path.join(folder, 'object');
      const dispose = () => rm(folder, { recursive: true, force: true });
      let written = 0;
      const bounded = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          written += chunk.length;
          done(written > maxBytes ? new Error(`The object ${key} is larger than ${maxBytes} bytes.`) : null, chunk);
        },
      });
      try {
        await pipeline(body, bounded, createWriteStream(file));
      } catch (error) {
        await dispose();
        throw error;
      }
      return { path: file, dispose };
    },
  };
}
