import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileResponseHeaders } from '@portal/shared';
import { createS3Auth, S3Refusal, s3ErrorXml, splitTarget, type S3Auth } from './s3-auth.js';
import { listObjectsV2, type ListingStore } from './s3-listing.js';
import { keepFoldersApart, type FolderStore } from './s3-folders.js';
import { gated, isDeletion, isListing, type Gate } from './s3-gate.js';
import { MultipartUploads } from './s3-multipart.js';
import { postUpload } from './s3-post-policy.js';
import { assertPortFree, LOCAL_CREDENTIALS, outlastIdleClients, type RunningService } from './types.js';

/** The slice of s3rver 3.7 (a CommonJS package without types) used here. */
interface S3rverSubresource {
  readonly type: string;
  toXML(space?: number): string;
}
interface S3rverInstance {
  readonly store: ListingStore & {
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
  /** The region signatures must name (default us-east-1, the local stage's). */
  readonly region?: string;
}

/** S3Client settings that s3rver needs; spread them into every local S3Client. */
export const S3_CLIENT_COMPAT = {
  forcePathStyle: true,
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
} as const;

const CORS_METHODS = ['GET', 'PUT', 'POST', 'HEAD'] as const;
const CLOSE_GRACE_MS = 2_000;
/** The most the proxy reads of one request body (S3 takes 5 GB in one PUT; local documents are small). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

/**
 * S3 on this machine: s3rver in this process, path-style only, with objects on disk under
 * `<dataDir>/s3`, behind a proxy of ours on `port` that checks what S3 checks and s3rver does not:
 *
 * - Every request but a CORS preflight and a browser POST upload must be signed with SigV4 (the
 *   Authorization header or a presigned URL) with the stage's credentials (LOCAL_CREDENTIALS), the
 *   stage's region and a valid signature, not expired, the payload hash matching the body: else
 *   403 AccessDenied (unsigned), SignatureDoesNotMatch, InvalidAccessKeyId, RequestTimeTooSkewed, …
 *   with S3's XML error body. s3rver alone accepts anonymous PUT, GET and DELETE and any SigV4 signature.
 * - A POST form upload must carry a policy whose signature verifies, that has not expired and whose
 *   every condition holds (exact and starts-with matches on key, Content-Type, bucket, x-amz-*,
 *   content-length-range on the file), with no form field the policy does not cover; else S3's 403
 *   AccessDenied ("Invalid according to Policy: …") or 400 EntityTooLarge / EntityTooSmall. s3rver
 *   alone ignores the policy. What reaches s3rver is the form as checked (fields after the file are
 *   ignored, as S3 does). See s3-auth.ts, s3-sigv4.ts and s3-post-policy.ts.
 *
 * - Multipart uploads: parts of at least 5 MiB but the last, listed in order and uploaded, and AbortMultipartUpload,
 *   which s3rver lacks (s3-multipart.ts).
 *
 * s3rver predates the SDK's default checksums: with them, a streamed PutObject is sent
 * `aws-chunked` and s3rver stores the chunk framing and the CRC32 trailer as part of the object
 * (string and Buffer bodies happen to survive). S3 clients of the local stage must therefore use
 * S3_CLIENT_COMPAT below (or, for functions, the environment variables
 * AWS_REQUEST_CHECKSUM_CALCULATION=WHEN_REQUIRED and AWS_RESPONSE_CHECKSUM_VALIDATION=WHEN_REQUIRED,
 * plus path-style addressing).
 *
 * Every bucket gets the same CORS rule (the given origins; GET, PUT, POST, HEAD; any header; ETag
 * exposed), whether it already exists on disk or is created later through the API, so that
 * provisioning needs no CORS step of its own. Refusals carry the CORS headers too, so that the web
 * app can read them.
 */
export async function startS3(options: S3Options): Promise<RunningService> {
  const { port, host } = options;
  const directory = path.join(path.resolve(options.dataDir), 's3');
  fs.mkdirSync(directory, { recursive: true });
  await assertPortFree(port, host, 'S3');

  const cors = corsConfiguration(options.corsOrigins);
  const S3rver = require('s3rver') as S3rverConstructor;
  const server = new S3rver({
    // Reached only through the proxy below: loopback, a port of the system's choosing.
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    vhostBuckets: false,
    resetOnClose: false,
  });

  const { store } = server;
  keepFoldersApart(store as unknown as FolderStore);
  const putBucket = store.putBucket.bind(store);
  store.putBucket = async (bucket: string) => {
    const created = await putBucket(bucket);
    await store.putSubresource(bucket, undefined, cors);
    return created;
  };
  for (const bucket of await store.listBuckets()) {
    await store.putSubresource(bucket.name, undefined, cors);
  }

  const internal = (await server.run()) as AddressInfo;
  const endpoint = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const auth = createS3Auth({ credentials: LOCAL_CREDENTIALS, region: options.region ?? 'us-east-1' });
  const multipart = new MultipartUploads();
  const gate: Gate = { listings: 0, deletions: 0, waiting: [] };
  const proxy = http.createServer((req, res) => {
    void handleS3Request(req, res, {
      auth,
      multipart,
      internalPort: internal.port,
      corsOrigins: options.corsOrigins,
      gate,
      store,
    }).catch((error: unknown) => {
      if (!res.headersSent) {
        sendS3Error(req, res, options.corsOrigins, new S3Refusal(500, 'InternalError', String(error)));
      } else res.destroy();
    });
  });
  outlastIdleClients(proxy);
  try {
    await new Promise<void>((resolve, reject) => {
      proxy.once('error', reject);
      proxy.listen(port, host, () => resolve());
    });
  } catch (error) {
    await server.close();
    throw error;
  }

  let stopping: Promise<void> | undefined;
  return {
    name: 's3',
    endpoint,
    stop() {
      stopping ??= (async () => {
        await new Promise<void>((resolve) => {
          proxy.close(() => resolve());
          proxy.closeAllConnections();
        });
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

interface ProxyContext {
  readonly auth: S3Auth;
  /** Multipart uploads as S3 checks them (s3-multipart.ts). */
  readonly multipart: MultipartUploads;
  readonly internalPort: number;
  readonly corsOrigins: readonly string[];
  /** Keeps listings and deletions apart (see forward). */
  readonly gate: Gate;
  /** s3rver's store, which ListObjectsV2 is answered from (s3-listing.ts). */
  readonly store: ListingStore;
}

/** What S3 would do with the request before it reaches a bucket: see startS3. */
async function handleS3Request(req: http.IncomingMessage, res: http.ServerResponse, ctx: ProxyContext): Promise<void> {
  const target = req.url ?? '/';
  const method = req.method ?? 'GET';
  try {
    // CORS preflights carry no credentials, at S3 as here: s3rver answers them from the bucket's rule.
    if (method === 'OPTIONS') {
      await forward(req, res, ctx, await readBody(req));
      return;
    }
    const body = await readBody(req);
    const { path: rawPath, query } = splitTarget(target);
    const segments = rawPath.split('/').filter(Boolean);
    const contentType = String(req.headers['content-type'] ?? '');
    if (
      method === 'POST' &&
      segments.length === 1 &&
      query.length === 0 &&
      /^multipart\/form-data/i.test(contentType)
    ) {
      await postUpload(
        req,
        res,
        { verify: ctx.auth.verifyPostForm, internalPort: ctx.internalPort },
        bucketName(segments[0]!),
        body,
      );
      return;
    }
    await ctx.auth.verifyRequest({ method, url: target, headers: req.headers, body });
    const search = new URLSearchParams(target.includes('?') ? target.slice(target.indexOf('?') + 1) : '');
    if (method === 'GET' && segments.length === 1 && search.get('list-type') === '2') {
      const xml = await gated(ctx.gate, 'listing', () => listObjectsV2(ctx.store, bucketName(segments[0]!), search));
      res.writeHead(200, {
        'content-type': 'application/xml',
        'content-length': Buffer.byteLength(xml),
        'x-amz-request-id': randomUUID().replaceAll('-', '').slice(0, 16).toUpperCase(),
      });
      res.end(xml);
      return;
    }
    if (segments.length >= 2 && ctx.multipart.check(method, search, body) === 'answered') {
      // AbortMultipartUpload, which s3rver lacks: S3's 204.
      res.writeHead(204, { 'x-amz-request-id': randomUUID().replaceAll('-', '').slice(0, 16).toUpperCase() });
      res.end();
      return;
    }
    await forward(req, res, ctx, body);
  } catch (error) {
    if (!(error instanceof S3Refusal)) throw error;
    sendS3Error(req, res, ctx.corsOrigins, error);
  }
}

function bucketName(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new S3Refusal(400, 'InvalidURI', "Couldn't parse the specified URI.");
  }
}

/** Hands a checked request to s3rver and its answer back, as they are (listings and deletions through the gate). */
async function forward(req: http.IncomingMessage, res: http.ServerResponse, ctx: ProxyContext, body: Buffer) {
  const kind = isListing(req) ? 'listing' : isDeletion(req) ? 'deletion' : null;
  if (!kind) return relay(req, res, ctx, body);
  await gated(ctx.gate, kind, () => relay(req, res, ctx, body));
}

/** Relays the request to s3rver; resolves once s3rver's whole answer was read (or the request failed). */
function relay(req: http.IncomingMessage, res: http.ServerResponse, ctx: ProxyContext, body: Buffer): Promise<void> {
  return new Promise((settled) => {
    // A client gone before the answer's end ends the relay too: the gate never waits on an abandoned answer.
    res.once('close', () => settled());
    const headers = { ...req.headers };
    delete headers['transfer-encoding'];
    headers['content-length'] = String(body.length);
    const upstream = http.request(
      { host: '127.0.0.1', port: ctx.internalPort, method: req.method, path: req.url, headers },
      (response) => {
        // A download link's answer gets what the files distribution adds in AWS (infra constructs/files.ts).
        const link = (req.method === 'GET' || req.method === 'HEAD') && /[?&]X-Amz-Signature=/.test(req.url ?? '');
        const status = response.statusCode ?? 502;
        const extra = link && status < 300 ? Object.entries(fileResponseHeaders(response.headers['content-type'])) : [];
        res.writeHead(status, [...response.rawHeaders, ...extra.flat()]);
        response.pipe(res);
        response.once('end', () => settled());
        response.once('error', () => settled());
      },
    );
    upstream.on('error', (error) => {
      if (!res.headersSent) sendS3Error(req, res, ctx.corsOrigins, new S3Refusal(500, 'InternalError', error.message));
      else res.destroy(error);
      settled();
    });
    upstream.end(body);
  });
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.pause();
        reject(new S3Refusal(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size'));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** S3's XML error, with the bucket's CORS headers for an allowed origin (S3 adds them to errors too). */
function sendS3Error(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  corsOrigins: readonly string[],
  refusal: S3Refusal,
): void {
  const { body, requestId } = s3ErrorXml(refusal.code, refusal.message, (req.url ?? '/').split('?')[0]!);
  const origin = req.headers.origin;
  const cors: Record<string, string> =
    origin && corsOrigins.includes(origin)
      ? {
          'access-control-allow-origin': origin,
          'access-control-allow-methods': CORS_METHODS.join(', '),
          'access-control-expose-headers': 'ETag',
          vary: 'Origin',
        }
      : {};
  res.writeHead(refusal.status, {
    'content-type': 'application/xml',
    'x-amz-request-id': requestId,
    'content-length': req.method === 'HEAD' ? 0 : Buffer.byteLength(body),
    ...cors,
    ...(refusal.status >= 400 && req.complete === false ? { connection: 'close' } : {}),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
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
