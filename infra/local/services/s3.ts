import fs from 'node:fs';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { assertPortFree, type RunningService } from './types.js';

/** The slice of s3rver 3.7 (a CommonJS package without types) used here. */
interface S3rverSubresource {
  readonly type: string;
  toXML(space?: number): string;
}
interface S3rverInstance {
  readonly store: {
    listBuckets(): Promise<Array<{ name: string }>>;
    putBucket(bucket: string): Promise<unknown>;
    putSubresource(bucket: string, key: string | undefined, resource: S3rverSubresource): Promise<void>;
  };
  readonly httpServer?: Server;
  run(): Promise<unknown>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  vhostBuckets: boolean;
  resetOnClose: boolean;
}) => S3rverInstance;
interface S3rverConfigModels {
  getConfigModel(type: 'cors'): { validate(xml: string): S3rverSubresource };
}

const require = createRequire(import.meta.url);

export interface S3Options {
  readonly port: number;
  readonly host: string;
  /** The stage's data directory; objects are kept under `<dataDir>/s3`. */
  readonly dataDir: string;
  /** Origins allowed by CORS on every bucket (the web app, for presigned POST uploads). */
  readonly corsOrigins: readonly string[];
}

/** S3Client settings that s3rver needs; spread them into every local S3Client. */
export const S3_CLIENT_COMPAT = {
  forcePathStyle: true,
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
} as const;

const CORS_METHODS = ['GET', 'PUT', 'POST', 'HEAD'] as const;
const CLOSE_GRACE_MS = 2_000;

/**
 * Runs s3rver in this process, path-style only, with objects on disk under `<dataDir>/s3`.
 *
 * Signed requests must use the access key id `S3RVER` (s3rver's only built-in account; the secret
 * is `S3RVER` too): see LOCAL_CREDENTIALS. s3rver accepts any SigV4 signature from a known key and
 * verifies only V2 signatures.
 *
 * s3rver predates the SDK's default checksums: with them, a streamed PutObject is sent
 * `aws-chunked` and s3rver stores the chunk framing and the CRC32 trailer as part of the object
 * (string and Buffer bodies happen to survive). S3 clients of the local stage must therefore use
 * S3_CLIENT_COMPAT below (or, for functions, the environment variables
 * AWS_REQUEST_CHECKSUM_CALCULATION=WHEN_REQUIRED and AWS_RESPONSE_CHECKSUM_VALIDATION=WHEN_REQUIRED,
 * plus path-style addressing).
 *
 * Presigned POST: s3rver stores the form's file under its `key` field but ignores `policy` and
 * the signature fields, so the policy's conditions (content-length-range, Content-Type) are NOT
 * enforced locally; the handler that reads the upload must check size and type itself.
 *
 * Every bucket gets the same CORS rule (the given origins; GET, PUT, POST, HEAD; any header; ETag
 * exposed), whether it already exists on disk or is created later through the API, so that
 * provisioning needs no CORS step of its own.
 */
export async function startS3(options: S3Options): Promise<RunningService> {
  const { port, host } = options;
  const directory = path.join(path.resolve(options.dataDir), 's3');
  fs.mkdirSync(directory, { recursive: true });
  await assertPortFree(port, host, 'S3');

  const cors = corsConfiguration(options.corsOrigins);
  const S3rver = require('s3rver') as S3rverConstructor;
  const server = new S3rver({
    address: host,
    port,
    silent: true,
    directory,
    vhostBuckets: false,
    resetOnClose: false,
  });

  const { store } = server;
  const putBucket = store.putBucket.bind(store);
  store.putBucket = async (bucket: string) => {
    const created = await putBucket(bucket);
    await store.putSubresource(bucket, undefined, cors);
    return created;
  };
  for (const bucket of await store.listBuckets()) {
    await store.putSubresource(bucket.name, undefined, cors);
  }

  await server.run();
  const endpoint = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  let stopping: Promise<void> | undefined;
  return {
    name: 's3',
    endpoint,
    stop() {
      stopping ??= (async () => {
        const httpServer = server.httpServer;
        const closed = server.close();
        // Keep-alive sockets of SDK clients would hold close() open; idle ones go now, busy ones
        // get a short grace period.
        httpServer?.closeIdleConnections();
        const timer = setTimeout(() => httpServer?.closeAllConnections(), CLOSE_GRACE_MS);
        try {
          await closed;
        } finally {
          clearTimeout(timer);
        }
      })();
      return stopping;
    },
  };
}

/** Builds the CORS subresource through s3rver's own model, so that it is validated as S3 would. */
function corsConfiguration(origins: readonly string[]): S3rverSubresource {
  if (origins.length === 0) {
    throw new Error('startS3 necesita al menos un origen en corsOrigins (por ejemplo http://127.0.0.1:4700).');
  }
  const rule = [
    ...origins.map((origin) => `<AllowedOrigin>${escapeXml(origin)}</AllowedOrigin>`),
    ...CORS_METHODS.map((method) => `<AllowedMethod>${method}</AllowedMethod>`),
    '<AllowedHeader>*</AllowedHeader>',
    '<ExposeHeader>ETag</ExposeHeader>',
    '<MaxAgeSeconds>3000</MaxAgeSeconds>',
  ].join('');
  const xml = `<CORSConfiguration><CORSRule>${rule}</CORSRule></CORSConfiguration>`;
  const models = require('s3rver/lib/models/config') as S3rverConfigModels;
  return models.getConfigModel('cors').validate(xml);
}

function escapeXml(value: string): string {
  return value.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
}
