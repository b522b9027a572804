import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { SignatureV4 } from '@smithy/signature-v4';
import type { HttpRequest, SourceData } from '@smithy/types';

/**
 * What S3 checks before it lets a request touch a bucket, for the local stage's S3 proxy (s3.ts):
 * SigV4 signatures (Authorization header or presigned query) and browser POST uploads with their
 * signed policy. The canonical request, string to sign and signing key come from @smithy/signature-v4
 * (the AWS SDK's own signer), so a request the SDK signs verifies exactly as it does at AWS.
 */

/** An S3 refusal: status and error code as S3 answers them. */
export class S3Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface S3Credentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';
const SERVICE = 's3';
/** S3 refuses a signed request whose date is more than 15 minutes away from its clock. */
const MAX_SKEW_MS = 15 * 60 * 1000;
const MAX_PRESIGNED_SECONDS = 7 * 24 * 3600;

/** node:crypto behind the hash interface the signer expects (SHA-256, or HMAC-SHA-256 given a secret). */
class NodeSha256 {
  private readonly hash;

  constructor(secret?: SourceData) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', toBuffer(secret));
  }

  update(data: SourceData): void {
    this.hash.update(toBuffer(data));
  }

  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
}

function toBuffer(data: SourceData): Buffer {
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return Buffer.from(data);
}

/** The SDK's signer, with the expected signature of a request already signed by someone else. */
class Verifier extends SignatureV4 {
  constructor(credentials: S3Credentials, region: string) {
    // S3 signs the path as sent (no double encoding) and states the payload hash in a header.
    super({ credentials, region, service: SERVICE, sha256: NodeSha256, uriEscapePath: false, applyChecksum: false });
  }

  async expectedSignature(
    request: HttpRequest,
    signedHeaders: readonly string[],
    payloadHash: string,
    scope: Scope,
  ): Promise<string> {
    const canonicalHeaders: Record<string, string> = {};
    for (const name of signedHeaders) canonicalHeaders[name] = canonicalValue(request.headers[name] ?? '');
    const canonicalRequest = this.createCanonicalRequest(request, canonicalHeaders, payloadHash);
    const stringToSign = await this.createStringToSign(
      scope.longDate,
      `${scope.date}/${scope.region}/${SERVICE}/aws4_request`,
      canonicalRequest,
      ALGORITHM,
    );
    return this.sign(stringToSign, {
      signingDate: scope.signingDate,
      signingRegion: scope.region,
      signingService: SERVICE,
    });
  }

  /** A POST policy's signature: the base64 policy signed with the day's signing key. */
  policySignature(policy: string, scope: Scope): Promise<string> {
    return this.sign(policy, {
      signingDate: scope.signingDate,
      signingRegion: scope.region,
      signingService: SERVICE,
    });
  }
}

function canonicalValue(value: string): string {
  return value.trim().replace(/\s+/g, ' ');
}

interface Scope {
  readonly accessKeyId: string;
  /** yyyymmdd */
  readonly date: string;
  readonly region: string;
  /** yyyymmddThhmmssZ */
  readonly longDate: string;
  readonly signingDate: Date;
}

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

/** A browser upload form: its fields (before the file) in order, and the file. */
export interface PostForm {
  readonly fields: ReadonlyArray<readonly [string, string]>;
  readonly fileName: string;
  readonly fileSize: number;
}

export function createS3Auth(options: S3AuthOptions): S3Auth {
  const now = options.now ?? (() => new Date());
  const verifier = new Verifier(options.credentials, options.region);

  /** Checks the credential scope: our key, a date, our region, s3. */
  const scopeOf = (credential: string, longDate: string): Scope => {
    const [accessKeyId = '', date = '', region = '', service = '', terminator = '', ...rest] = credential.split('/');
    if (!accessKeyId || rest.length > 0 || terminator !== 'aws4_request' || !/^\d{8}$/.test(date)) {
      throw new S3Refusal(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed.');
    }
    if (accessKeyId !== options.credentials.accessKeyId) {
      throw new S3Refusal(
        403,
        'InvalidAccessKeyId',
        'The AWS Access Key Id you provided does not exist in our records.',
      );
    }
    if (region !== options.region) {
      throw new S3Refusal(
        400,
        'AuthorizationHeaderMalformed',
        `The authorization header is malformed; the region '${region}' is wrong; expecting '${options.region}'`,
      );
    }
    if (service !== SERVICE) {
      throw new S3Refusal(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed.');
    }
    const signingDate = parseLongDate(longDate);
    if (!signingDate || longDate.slice(0, 8) !== date) {
      throw new S3Refusal(403, 'AccessDenied', 'AWS authentication requires a valid Date or x-amz-date header');
    }
    return { accessKeyId, date, region, longDate, signingDate };
  };

  const compare = (expected: string, given: string): void => {
    const a = Buffer.from(expected);
    const b = Buffer.from(given);
    if (a.length !== b.length || !timingSafeEqual(a, b)) {
      throw new S3Refusal(
        403,
        'SignatureDoesNotMatch',
        'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
      );
    }
  };

  return {
    async verifyRequest(request) {
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

      if (authorization) {
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
        const scope = scopeOf(credential, longDate);
        checkSkew(scope.signingDate, now());
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
        const expected = await verifier.expectedSignature(
          { method: request.method, path, query: queryRecord(query), headers, protocol: 'http:', hostname: '' },
          signedHeaders,
          payloadHash,
          scope,
        );
        compare(expected, signature);
        return;
      }

      const param = (name: string) => query.find(([key]) => key === name)?.[1] ?? '';
      if (param('X-Amz-Algorithm') !== ALGORITHM) {
        throw new S3Refusal(
          400,
          'AuthorizationQueryParametersError',
          'X-Amz-Algorithm only supports "AWS4-HMAC-SHA256"',
        );
      }
      const scope = scopeOf(param('X-Amz-Credential'), param('X-Amz-Date'));
      const expires = Number(param('X-Amz-Expires'));
      if (!Number.isInteger(expires) || expires < 1 || expires > MAX_PRESIGNED_SECONDS) {
        throw new S3Refusal(
          400,
          'AuthorizationQueryParametersError',
          'X-Amz-Expires must be between 1 and 604800 seconds',
        );
      }
      const signedHeaders = param('X-Amz-SignedHeaders').split(';');
      requireSigned(signedHeaders, headers);
      const signature = param('X-Amz-Signature');
      const expected = await verifier.expectedSignature(
        { method: request.method, path, query: queryRecord(query), headers, protocol: 'http:', hostname: '' },
        signedHeaders,
        'UNSIGNED-PAYLOAD',
        scope,
      );
      compare(expected, signature);
      const current = now().getTime();
      if (current > scope.signingDate.getTime() + expires * 1000) {
        throw new S3Refusal(403, 'AccessDenied', 'Request has expired');
      }
      if (scope.signingDate.getTime() - current > MAX_SKEW_MS) {
        throw new S3Refusal(403, 'AccessDenied', 'Request is not valid yet');
      }
    },

    async verifyPostForm(bucket, form) {
      const fields = new Map<string, string>();
      for (const [name, value] of form.fields) {
        const lower = name.toLowerCase();
        if (fields.has(lower)) {
          throw new S3Refusal(400, 'InvalidArgument', `POST form fields must appear once: ${name}`);
        }
        fields.set(lower, value);
      }
      const encodedPolicy = fields.get('policy');
      // No policy: an anonymous upload, which only a public-write bucket accepts (none here).
      if (!encodedPolicy) throw new S3Refusal(403, 'AccessDenied', 'Access Denied');
      if (fields.get('x-amz-algorithm') !== ALGORITHM) {
        throw new S3Refusal(
          400,
          'InvalidArgument',
          'Bucket POST must contain a field named x-amz-algorithm with AWS4-HMAC-SHA256',
        );
      }
      const scope = scopeOf(fields.get('x-amz-credential') ?? '', fields.get('x-amz-date') ?? '');
      const signature = fields.get('x-amz-signature') ?? '';
      compare(await verifier.policySignature(encodedPolicy, scope), signature);

      const policy = decodePolicy(encodedPolicy);
      const expiration = Date.parse(policy.expiration);
      if (now().getTime() > expiration) {
        throw new S3Refusal(403, 'AccessDenied', 'Invalid according to Policy: Policy expired.');
      }
      if (!fields.has('key')) {
        throw new S3Refusal(400, 'InvalidArgument', "Bucket POST must contain a field named 'key'.");
      }

      // Every field must be allowed by a condition, except these (S3's rule).
      const covered = new Set(['policy', 'x-amz-signature', 'file']);
      const valueOf = (field: string): string => (field === 'bucket' ? bucket : (fields.get(field) ?? ''));
      for (const condition of policy.conditions) {
        const failed = () =>
          new S3Refusal(
            403,
            'AccessDenied',
            `Invalid according to Policy: Policy Condition failed: ${JSON.stringify(condition)}`,
          );
        if (Array.isArray(condition)) {
          const [operator, target, value] = condition as unknown[];
          const op = String(operator).toLowerCase();
          if (op === 'content-length-range') {
            const [min, max] = [Number(target), Number(value)];
            if (!Number.isFinite(min) || !Number.isFinite(max)) throw invalidPolicy();
            if (form.fileSize > max) {
              throw new S3Refusal(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size');
            }
            if (form.fileSize < min) {
              throw new S3Refusal(
                400,
                'EntityTooSmall',
                'Your proposed upload is smaller than the minimum allowed size',
              );
            }
            continue;
          }
          if (typeof target !== 'string' || !target.startsWith('$') || typeof value !== 'string') throw invalidPolicy();
          const field = target.slice(1).toLowerCase();
          covered.add(field);
          const actual = valueOf(field);
          if (op === 'eq') {
            if (actual !== value) throw failed();
          } else if (op === 'starts-with') {
            // For Content-Type, S3 checks each of a comma-separated list.
            const values = field === 'content-type' ? actual.split(',').map((part) => part.trim()) : [actual];
            if (!values.every((part) => part.startsWith(value))) throw failed();
          } else {
            throw invalidPolicy();
          }
        } else if (condition && typeof condition === 'object') {
          const entries = Object.entries(condition as Record<string, unknown>);
          if (entries.length !== 1) throw invalidPolicy();
          const [name, value] = entries[0]!;
          const field = name.replace(/^\$/, '').toLowerCase();
          covered.add(field);
          if (valueOf(field) !== String(value)) throw failed();
        } else {
          throw invalidPolicy();
        }
      }
      const extra = [...fields.keys()].filter((field) => !covered.has(field) && !field.startsWith('x-ignore-'));
      if (extra.length > 0) {
        throw new S3Refusal(
          403,
          'AccessDenied',
          `Invalid according to Policy: Extra input fields: ${extra.join(', ')}`,
        );
      }
    },
  };
}

function invalidPolicy(): S3Refusal {
  return new S3Refusal(400, 'InvalidPolicyDocument', 'Invalid Policy: Invalid JSON.');
}

function decodePolicy(encoded: string): { expiration: string; conditions: unknown[] } {
  let policy: unknown;
  try {
    policy = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'));
  } catch {
    throw invalidPolicy();
  }
  if (!policy || typeof policy !== 'object') throw invalidPolicy();
  const { expiration, conditions } = policy as { expiration?: unknown; conditions?: unknown };
  if (typeof expiration !== 'string' || Number.isNaN(Date.parse(expiration))) {
    throw new S3Refusal(400, 'InvalidPolicyDocument', "Invalid Policy: Invalid 'expiration' value.");
  }
  if (!Array.isArray(conditions)) {
    throw new S3Refusal(400, 'InvalidPolicyDocument', "Invalid Policy: Invalid 'conditions' value.");
  }
  return { expiration, conditions };
}

function requireSigned(signedHeaders: readonly string[], headers: Record<string, string>): void {
  if (!signedHeaders.includes('host')) {
    throw new S3Refusal(400, 'AuthorizationHeaderMalformed', 'The host header must be signed.');
  }
  // Every x-amz-* header sent must be signed (S3 refuses unsigned ones).
  for (const name of Object.keys(headers)) {
    if (name.startsWith('x-amz-') && !signedHeaders.includes(name)) {
      throw new S3Refusal(
        403,
        'AccessDenied',
        `There were headers present in the request which were not signed: ${name}`,
      );
    }
  }
  for (const name of signedHeaders) {
    if (headers[name] === undefined) {
      throw new S3Refusal(403, 'SignatureDoesNotMatch', `The signed header ${name} is missing from the request.`);
    }
  }
}

function checkSkew(signingDate: Date, now: Date): void {
  if (Math.abs(now.getTime() - signingDate.getTime()) > MAX_SKEW_MS) {
    throw new S3Refusal(
      403,
      'RequestTimeTooSkewed',
      'The difference between the request time and the current time is too large.',
    );
  }
}

function parseLongDate(value: string): Date | null {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match;
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Raw path and decoded query pairs of a request target. */
export function splitTarget(target: string): { path: string; query: Array<[string, string]> } {
  const index = target.indexOf('?');
  const path = index === -1 ? target : target.slice(0, index);
  const raw = index === -1 ? '' : target.slice(index + 1);
  const query: Array<[string, string]> = [];
  for (const part of raw.split('&')) {
    if (!part) continue;
    const equals = part.indexOf('=');
    const [name, value] = equals === -1 ? [part, ''] : [part.slice(0, equals), part.slice(equals + 1)];
    try {
      query.push([decodeURIComponent(name), decodeURIComponent(value)]);
    } catch {
      throw new S3Refusal(400, 'InvalidArgument', 'Malformed query string');
    }
  }
  return { path, query };
}

function queryRecord(query: ReadonlyArray<readonly [string, string]>): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = {};
  for (const [name, value] of query) {
    const existing = record[name];
    if (existing === undefined) record[name] = value;
    else record[name] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return record;
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** S3's error body. */
export function s3ErrorXml(code: string, message: string, resource: string): { body: string; requestId: string } {
  const requestId = randomBytes(8).toString('hex').toUpperCase();
  const escape = (text: string) => text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
  const body =
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<Error><Code>${escape(code)}</Code><Message>${escape(message)}</Message>` +
    `<Resource>${escape(resource)}</Resource><RequestId>${requestId}</RequestId>` +
    `<HostId>${randomBytes(24).toString('base64')}</HostId></Error>`;
  return { body, requestId };
}
