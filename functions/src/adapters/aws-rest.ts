import { fromEnv } from '@aws-sdk/credential-provider-env';
import { Sha256 } from '@smithy/core/checksum';
import { HttpRequest } from '@smithy/core/transport';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider, HttpRequest as SignedRequest } from '@smithy/types';

/**
 * Signed calls to the AWS REST APIs whose SDK clients are too heavy for an API handler's budget (S3 and
 * SES v2: each client carries a schema of every operation of its service, 100–165 KB that esbuild cannot
 * tree-shake, for the one to five operations the functions call). The request is signed by the SDK's own
 * SigV4 signer (`@smithy/signature-v4`) and sent with `fetch` (traced by functions/src/http/tracer.ts like
 * every fetch); what is ours is the URL, the headers and the reading of the answer (docs/decisions.md,
 * "Signed S3 and SES calls without their SDK clients").
 */

export interface AwsService {
  /** Signing name: `s3`, `ses`. */
  readonly signingName: string;
  readonly region: string;
  /** Where requests go, without a trailing slash: `https://email.us-east-1.amazonaws.com`, a local stand-in. */
  readonly endpoint: string;
  readonly credentials: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  /** Tries per call (first one included) when AWS answers 500, 502, 503 or 504, or the connection fails. */
  readonly maxAttempts?: number;
}

/** An AWS answer other than 2xx, with the error code the service gave, if any. */
export class AwsRequestError extends Error {
  override readonly name = 'AwsRequestError';
  constructor(
    readonly service: string,
    readonly operation: string,
    readonly status: number,
    readonly code: string | null,
    readonly requestId: string | null,
    detail: string,
  ) {
    super(`${service} ${operation}: HTTP ${status}${code ? ` ${code}` : ''}${detail ? `: ${detail}` : ''}`);
  }
}

export interface AwsCall {
  /** For errors and logs: `HeadObject`, `SendEmail`. */
  readonly operation: string;
  readonly method: 'GET' | 'HEAD' | 'PUT' | 'POST' | 'DELETE';
  /** Path already percent-encoded (see encodePath), starting with `/`. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Statuses answered to the caller instead of thrown (404 of a missing object, 416 of an empty one). */
  readonly accept?: readonly number[];
}

/** Region and credentials Lambda gives every function (the local stage sets the same variables). */
export function lambdaEnvironment(env: NodeJS.ProcessEnv = process.env): { region: string } {
  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  if (!region) throw new Error('AWS_REGION is not set');
  return { region };
}

/** The credentials of the environment, read once and cached (Lambda's role credentials are fixed per sandbox). */
export const environmentCredentials: AwsCredentialIdentityProvider = fromEnv();

/** RFC 3986 percent-encoding, as SigV4 canonicalizes: everything but A–Z a–z 0–9 - . _ ~. */
export function encodeRfc3986(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A path of segments, each encoded (slashes inside a segment are kept as separators, as S3 keys want). */
export function encodePath(...segments: string[]): string {
  return `/${segments.map((segment) => segment.split('/').map(encodeRfc3986).join('/')).join('/')}`;
}

function queryString(query: Readonly<Record<string, string>>): string {
  return Object.keys(query)
    .sort()
    .map((name) => `${encodeRfc3986(name)}=${encodeRfc3986(query[name]!)}`)
    .join('&');
}

function requestOf(service: AwsService, call: Pick<AwsCall, 'method' | 'path' | 'query' | 'headers' | 'body'>) {
  const url = new URL(service.endpoint);
  const basePath = url.pathname.replace(/\/$/, '');
  return new HttpRequest({
    method: call.method,
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port ? Number(url.port) : undefined,
    path: `${basePath}${call.path}`,
    query: { ...call.query },
    // The host as fetch will send it (with the port when it is not the scheme's own).
    headers: { host: url.host, ...call.headers },
    body: call.body,
  });
}

function urlOf(request: SignedRequest): string {
  const port = request.port ? `:${request.port}` : '';
  const query = queryString(request.query as Record<string, string>);
  return `${request.protocol}//${request.hostname}${port}${request.path}${query ? `?${query}` : ''}`;
}

function signerFor(service: AwsService): SignatureV4 {
  return new SignatureV4({
    service: service.signingName,
    region: service.region,
    credentials: service.credentials,
    sha256: Sha256,
    // Paths are encoded once by encodePath; S3 wants them signed as sent (no second encoding), and for the
    // other REST APIs called here the paths hold no characters a second encoding would change.
    uriEscapePath: false,
  });
}

const RETRIED = new Set([500, 502, 503, 504]);
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The error code of an AWS error body: `<Code>` of REST-XML (S3), `__type`/`code` or the header of REST-JSON. */
function errorCode(response: Response, body: string): string | null {
  const header = response.headers.get('x-amzn-errortype');
  if (header) return header.split(':')[0]!;
  const xml = /<Code>([^<]+)<\/Code>/.exec(body);
  if (xml) return xml[1]!;
  try {
    const json = JSON.parse(body) as { __type?: string; code?: string };
    const type = json.__type ?? json.code;
    return type ? type.split('#').pop()! : null;
  } catch {
    return null;
  }
}

/**
 * Signs and sends one call, retrying server faults and broken connections with a growing pause
 * (100, 200 ms…). Answers 2xx and the `accept`ed statuses; throws AwsRequestError for any other.
 */
export async function callAws(service: AwsService, call: AwsCall): Promise<Response> {
  const signer = signerFor(service);
  const attempts = Math.max(1, service.maxAttempts ?? 3);
  for (let attempt = 1; ; attempt++) {
    const signed = await signer.sign(requestOf(service, call));
    const { host: _host, ...headers } = signed.headers;
    let response: Response;
    try {
      response = await fetch(urlOf(signed), { method: call.method, headers, body: call.body });
    } catch (error) {
      if (attempt < attempts) {
        await wait(100 * 2 ** (attempt - 1));
        continue;
      }
      throw error;
    }
    if (response.ok || call.accept?.includes(response.status)) return response;
    const body = call.method === 'HEAD' ? '' : await response.text();
    if (RETRIED.has(response.status) && attempt < attempts) {
      await wait(100 * 2 ** (attempt - 1));
      continue;
    }
    throw new AwsRequestError(
      service.signingName,
      call.operation,
      response.status,
      errorCode(response, body),
      response.headers.get('x-amz-request-id') ?? response.headers.get('x-amzn-requestid'),
      body.slice(0, 300),
    );
  }
}

/**
 * A presigned URL (SigV4 query string) for `call`, valid `expiresInSeconds`. The payload is not signed
 * (`UNSIGNED-PAYLOAD`, as S3 presigned links are) and only the host header is.
 */
export async function presignUrl(
  service: AwsService,
  call: Pick<AwsCall, 'method' | 'path' | 'query'>,
  expiresInSeconds: number,
  signingDate?: Date,
): Promise<string> {
  const request = requestOf(service, call);
  const payload = 'x-amz-content-sha256';
  request.headers[payload] = 'UNSIGNED-PAYLOAD';
  const signed = await signerFor(service).presign(request, {
    expiresIn: expiresInSeconds,
    signingDate,
    unhoistableHeaders: new Set([payload]),
    unsignableHeaders: new Set([payload]),
  });
  return urlOf(signed);
}

/**
 * What a presigned POST needs: the form's credential, date and token fields, and the SigV4 signature of its
 * policy with the service's signing key of `signingDate`'s day.
 */
export async function stringSigner(
  service: AwsService,
  signingDate: Date,
): Promise<{ credential: string; amzDate: string; sessionToken?: string; sign(value: string): Promise<string> }> {
  const credentials = typeof service.credentials === 'function' ? await service.credentials() : service.credentials;
  const amzDate = signingDate
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
  const signer = new SignatureV4({
    service: service.signingName,
    region: service.region,
    credentials,
    sha256: Sha256,
  });
  return {
    credential: `${credentials.accessKeyId}/${amzDate.slice(0, 8)}/${service.region}/${service.signingName}/aws4_request`,
    amzDate,
    ...(credentials.sessionToken ? { sessionToken: credentials.sessionToken } : {}),
    sign: (value) => signer.sign(value, { signingDate }),
  };
}
