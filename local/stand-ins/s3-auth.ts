import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { verifyPostForm, type PostForm } from './s3-post-policy.js';
import {
  ALGORITHM,
  MAX_PRESIGNED_SECONDS,
  MAX_SKEW_MS,
  S3Refusal,
  Verifier,
  checkSkew,
  compare,
  headerValue,
  queryRecord,
  requireSigned,
  scopeOf,
  splitTarget,
  type S3Credentials,
  type Signer,
} from './s3-sigv4.js';

export { S3Refusal, s3ErrorXml, splitTarget, type S3Credentials } from './s3-sigv4.js';
export type { PostForm } from './s3-post-policy.js';

/**
 * What S3 checks before it lets a request touch a bucket, for the local stage's S3 proxy (s3.ts):
 * SigV4 signatures (Authorization header or presigned query) and browser POST uploads with their
 * signed policy. The canonical request, string to sign and signing key come from @smithy/signature-v4
 * (the AWS SDK's own signer), so a request the SDK signs verifies exactly as it does at AWS.
 */

export interface S3AuthOptions {
  readonly credentials: S3Credentials;
  readonly region: string;
  readonly now?: () => Date;
}

/** A request as the proxy received it, its body read. */
export interface ReceivedRequest {
  readonly method: string;
  /** The request target as sent: raw path and query. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export interface S3Auth {
  /** Throws S3Refusal unless the request carries a valid SigV4 signature (header or presigned query). */
  verifyRequest(request: ReceivedRequest): Promise<void>;
  /** Throws S3Refusal unless the form's policy is signed, current and satisfied; returns the fields to store. */
  verifyPostForm(bucket: string, form: PostForm): Promise<void>;
}

export function createS3Auth(options: S3AuthOptions): S3Auth {
  const signer: Signer = {
    credentials: options.credentials,
    region: options.region,
    now: options.now ?? (() => new Date()),
    verifier: new Verifier(options.credentials, options.region),
  };
  return {
    verifyRequest: (request) => verifyRequest(signer, request),
    verifyPostForm: (bucket, form) => verifyPostForm(signer, bucket, form),
  };
}

async function verifyRequest(signer: Signer, request: ReceivedRequest): Promise<void> {
  const { path, query } = splitTarget(request.url);
  const authorization = headerValue(request.headers, 'authorization');
  const presigned = query.some(([name]) => name === 'X-Amz-Algorithm');
  if (authorization && presigned) {
    throw new S3Refusal(400, 'InvalidArgument', 'Only one auth mechanism allowed');
  }
  if (!authorization && !presigned) throw new S3Refusal(403, 'AccessDenied', 'Access Denied');

  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
  }

  const target = { path, query: queryRecord(query), headers };
  if (authorization) await verifyHeaderSignature(signer, request, target, authorization);
  else await verifyPresigned(signer, request, target, query);
}

/** The parts of a request the signature covers: raw path, query and headers (joined). */
interface SignedTarget {
  readonly path: string;
  readonly query: Record<string, string | string[]>;
  readonly headers: Record<string, string>;
}

/** SigV4 in the Authorization header, with the payload's hash (or UNSIGNED-PAYLOAD) in x-amz-content-sha256. */
async function verifyHeaderSignature(
  signer: Signer,
  request: ReceivedRequest,
  { path, query, headers }: SignedTarget,
  authorization: string,
): Promise<void> {
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^,\s]+),\s*SignedHeaders=([a-z0-9;._-]+),\s*Signature=([0-9a-f]{64})$/.exec(
      authorization.trim(),
    );
  if (!match) {
    throw new S3Refusal(
      400,
      'InvalidRequest',
      'The authorization mechanism you have provided is not supported. Please use AWS4-HMAC-SHA256.',
    );
  }
  const [, credential = '', signed = '', signature = ''] = match;
  const longDate = headers['x-amz-date'] ?? '';
  const scope = scopeOf(signer, credential, longDate);
  checkSkew(scope.signingDate, signer.now());
  const signedHeaders = signed.split(';');
  requireSigned(signedHeaders, headers);
  const payloadHash = headers['x-amz-content-sha256'];
  if (!payloadHash) {
    throw new S3Refusal(400, 'InvalidRequest', 'Missing required header for this request: x-amz-content-sha256');
  }
  if (/^[0-9a-f]{64}$/.test(payloadHash)) {
    if (createHash('sha256').update(request.body).digest('hex') !== payloadHash) {
      throw new S3Refusal(
        400,
        'XAmzContentSHA256Mismatch',
        "The provided 'x-amz-content-sha256' header does not match what was computed.",
      );
    }
  } else if (!['UNSIGNED-PAYLOAD', 'STREAMING-UNSIGNED-PAYLOAD-TRAILER'].includes(payloadHash)) {
    throw new S3Refusal(400, 'InvalidArgument', `x-amz-content-sha256 not supported here: ${payloadHash}`);
  }
  const expected = await signer.verifier.expectedSignature(
    { method: request.method, path, query, headers, protocol: 'http:', hostname: '' },
    signedHeaders,
    payloadHash,
    scope,
  );
  compare(expected, signature);
}

/** A presigned URL: X-Amz-* in the query, unsigned payload, within X-Amz-Expires of its date. */
async function verifyPresigned(
  signer: Signer,
  request: ReceivedRequest,
  { path, query: signedQuery, headers }: SignedTarget,
  query: ReadonlyArray<readonly [string, string]>,
): Promise<void> {
  const param = (name: string) => query.find(([key]) => key === name)?.[1] ?? '';
  if (param('X-Amz-Algorithm') !== ALGORITHM) {
    throw new S3Refusal(400, 'AuthorizationQueryParametersError', 'X-Amz-Algorithm only supports "AWS4-HMAC-SHA256"');
  }
  const scope = scopeOf(signer, param('X-Amz-Credential'), param('X-Amz-Date'));
  const expires = Number(param('X-Amz-Expires'));
  if (!Number.isInteger(expires) || expires < 1 || expires > MAX_PRESIGNED_SECONDS) {
    throw new S3Refusal(400, 'AuthorizationQueryParametersError', 'X-Amz-Expires must be between 1 and 604800 seconds');
  }
  const signedHeaders = param('X-Amz-SignedHeaders').split(';');
  requireSigned(signedHeaders, headers);
  const signature = param('X-Amz-Signature');
  const expected = await signer.verifier.expectedSignature(
    { method: request.method, path, query: signedQuery, headers, protocol: 'http:', hostname: '' },
    signedHeaders,
    'UNSIGNED-PAYLOAD',
    scope,
  );
  compare(expected, signature);
  const current = signer.now().getTime();
  if (current > scope.signingDate.getTime() + expires * 1000) {
    throw new S3Refusal(403, 'AccessDenied', 'Request has expired');
  }
  if (scope.signingDate.getTime() - current > MAX_SKEW_MS) {
    throw new S3Refusal(403, 'AccessDenied', 'Request is not valid yet');
  }
}
