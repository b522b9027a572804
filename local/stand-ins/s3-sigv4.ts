import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { SignatureV4 } from '@smithy/signature-v4';
import type { HttpRequest, SourceData } from '@smithy/types';

/**
 * SigV4 as S3 checks it, the pieces the request check (s3-auth.ts) and the POST policy check (s3-post-policy.ts)
 * share: the refusal, the credential scope, the expected signature (@smithy/signature-v4, the AWS SDK's own signer)
 * and the constant-time comparison.
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

export interface S3Credentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

export const ALGORITHM = 'AWS4-HMAC-SHA256';
const SERVICE = 's3';
/** S3 refuses a signed request whose date is more than 15 minutes away from its clock. */
export const MAX_SKEW_MS = 15 * 60 * 1000;
export const MAX_PRESIGNED_SECONDS = 7 * 24 * 3600;

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
export class Verifier extends SignatureV4 {
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

export interface Scope {
  readonly accessKeyId: string;
  /** yyyymmdd */
  readonly date: string;
  readonly region: string;
  /** yyyymmddThhmmssZ */
  readonly longDate: string;
  readonly signingDate: Date;
}

/** Who checks: the stage's credentials and region, its clock, and the signer. */
export interface Signer {
  readonly credentials: S3Credentials;
  readonly region: string;
  readonly now: () => Date;
  readonly verifier: Verifier;
}

/** Checks the credential scope: our key, a date, our region, s3. */
export function scopeOf(signer: Signer, credential: string, longDate: string): Scope {
  const [accessKeyId = '', date = '', region = '', service = '', terminator = '', ...rest] = credential.split('/');
  if (!accessKeyId || rest.length > 0 || terminator !== 'aws4_request' || !/^\d{8}$/.test(date)) {
    throw new S3Refusal(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed.');
  }
  if (accessKeyId !== signer.credentials.accessKeyId) {
    throw new S3Refusal(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
  }
  if (region !== signer.region) {
    throw new S3Refusal(
      400,
      'AuthorizationHeaderMalformed',
      `The authorization header is malformed; the region '${region}' is wrong; expecting '${signer.region}'`,
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
}

export function compare(expected: string, given: string): void {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  if (a.length !== b.length || !timingSafeEqual(a, b)) {
    throw new S3Refusal(
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    );
  }
}

export function requireSigned(signedHeaders: readonly string[], headers: Record<string, string>): void {
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

export function checkSkew(signingDate: Date, now: Date): void {
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

export function queryRecord(query: ReadonlyArray<readonly [string, string]>): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = {};
  for (const [name, value] of query) {
    const existing = record[name];
    if (existing === undefined) record[name] = value;
    else record[name] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return record;
}

export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
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
