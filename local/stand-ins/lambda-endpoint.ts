import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { outlastIdleClients, type RunningService } from './types.js';

export type LocalLambdaFunction = (event: unknown) => Promise<unknown>;

export interface LambdaEndpointOptions {
  readonly port: number;
  /** Bind address; the local stage only ever listens on loopback. */
  readonly host?: string;
  /** Functions by name, as callers put them in FunctionName (a plain name or an ARN ending in it). */
  readonly functions: Readonly<Record<string, LocalLambdaFunction>>;
  /** Lambda's own limit is configurable; triggers of Cognito get 5 s in AWS. Default 30 s. */
  readonly timeoutMs?: number;
  /** Where to report handler failures (default: console.error). */
  readonly log?: (line: string) => void;
}

const INVOKE_PATH = /^\/2015-03-31\/functions\/([^/]+)\/invocations\/?$/;
const MAX_PAYLOAD_BYTES = 6 * 1024 * 1024;
const ACCOUNT_ID = '000000000000';
const REGION = 'us-east-1';

class PayloadTooLargeError extends Error {}

/**
 * A minimal Lambda Invoke API (POST /2015-03-31/functions/{name}/invocations) over local handlers,
 * enough for Cognito triggers and any AWS SDK Lambda client: synchronous (RequestResponse), async
 * (Event, answered 202 and run in the background) and DryRun invocations.
 */
export async function startLambdaEndpoint(options: LambdaEndpointOptions): Promise<RunningService> {
  const host = options.host ?? '127.0.0.1';
  const timeoutMs = options.timeoutMs ?? 30_000;
  const log = options.log ?? ((line: string) => console.error(line));

  const server = http.createServer((req, res) => {
    void handleRequest(req, res).catch((error: unknown) => {
      log(`[lambda] error inesperado atendiendo ${req.method} ${req.url}: ${describe(error)}`);
      if (!res.headersSent)
        sendJson(
          res,
          500,
          { Type: 'Service', Message: 'Error interno del endpoint Lambda local' },
          { 'x-amzn-ErrorType': 'ServiceException' },
        );
      else res.destroy();
    });
  });

  async function handleRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = INVOKE_PATH.exec(url.pathname);
    if (req.method !== 'POST' || !match?.[1]) {
      sendError(res, 404, 'UnknownOperationException', `Operación no soportada: ${req.method} ${url.pathname}`);
      return;
    }
    const functionName = functionNameOf(decodeURIComponent(match[1]));
    const fn = options.functions[functionName];
    if (!fn) {
      sendError(res, 404, 'ResourceNotFoundException', `Function not found: ${functionArn(functionName)}`);
      return;
    }

    let raw: Buffer;
    try {
      raw = await readBody(req, MAX_PAYLOAD_BYTES);
    } catch (error) {
      if (error instanceof PayloadTooLargeError) {
        sendError(
          res,
          413,
          'RequestTooLargeException',
          'Request must be smaller than 6291456 bytes for the InvokeFunction operation',
        );
        return;
      }
      throw error;
    }
    let event: unknown = {};
    if (raw.length > 0) {
      try {
        event = JSON.parse(raw.toString('utf8')) as unknown;
      } catch {
        sendError(res, 400, 'InvalidRequestContentException', 'Could not parse request body into json');
        return;
      }
    }

    const invocationType = headerValue(req, 'x-amz-invocation-type') ?? 'RequestResponse';
    const requestId = randomUUID();
    const common = { 'x-amzn-RequestId': requestId, 'X-Amz-Executed-Version': '$LATEST' };
    if (invocationType === 'DryRun') {
      res.writeHead(204, common).end();
      return;
    }
    if (invocationType === 'Event') {
      res.writeHead(202, common).end();
      void invoke(fn, event, timeoutMs).then((outcome) => {
        if (!outcome.ok) log(`[lambda] ${functionName} (asíncrona) falló: ${outcome.error.errorMessage}`);
      });
      return;
    }
    if (invocationType !== 'RequestResponse') {
      sendError(res, 400, 'InvalidParameterValueException', `Invalid invocation type: ${invocationType}`);
      return;
    }

    const outcome = await invoke(fn, event, timeoutMs);
    if (outcome.ok) {
      const body = JSON.stringify(outcome.result === undefined ? null : outcome.result);
      res.writeHead(200, { ...common, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    } else {
      log(`[lambda] ${functionName} falló: ${outcome.error.errorType}: ${outcome.error.errorMessage}`);
      const body = JSON.stringify(outcome.error);
      res.writeHead(200, {
        ...common,
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
        'X-Amz-Function-Error': 'Unhandled',
      });
      res.end(body);
    }
  }

  outlastIdleClients(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;

  return {
    name: 'lambda',
    endpoint: `http://${formatHost(address.address)}:${address.port}`,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

type InvokeOutcome =
  { ok: true; result: unknown } | { ok: false; error: { errorType: string; errorMessage: string; trace: string[] } };

async function invoke(fn: LocalLambdaFunction, event: unknown, timeoutMs: number): Promise<InvokeOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new LambdaTimeoutError(timeoutMs)), timeoutMs);
  });
  try {
    const result = await Promise.race([Promise.resolve().then(() => fn(event)), timeout]);
    return { ok: true, result };
  } catch (error) {
    if (error instanceof LambdaTimeoutError) {
      return { ok: false, error: { errorType: 'Sandbox.Timedout', errorMessage: error.message, trace: [] } };
    }
    const err = error instanceof Error ? error : new Error(String(error));
    return {
      ok: false,
      error: { errorType: err.name || 'Error', errorMessage: err.message, trace: (err.stack ?? '').split('\n') },
    };
  } finally {
    clearTimeout(timer);
  }
}

class LambdaTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`Task timed out after ${(timeoutMs / 1000).toFixed(2)} seconds`);
  }
}

/** `name`, `name:qualifier`, `arn:aws:lambda:region:account:function:name[:qualifier]` or `account:function:name`. */
function functionNameOf(raw: string): string {
  const parts = raw.split(':');
  const at = parts.indexOf('function');
  if (at >= 0 && parts[at + 1]) return parts[at + 1] as string;
  return parts[0] ?? raw;
}

function functionArn(name: string): string {
  return `arn:aws:lambda:${REGION}:${ACCOUNT_ID}:function:${name}`;
}

function sendError(res: http.ServerResponse, status: number, type: string, message: string): void {
  sendJson(res, status, { Type: 'User', Message: message, __type: type }, { 'x-amzn-ErrorType': type });
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'x-amzn-RequestId': randomUUID(),
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

function headerValue(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Past the limit the rest is drained and dropped, so that the 413 answer can still be sent.
      if (size <= limit) chunks.push(chunk);
    });
    req.on('end', () => (size > limit ? reject(new PayloadTooLargeError()) : resolve(Buffer.concat(chunks))));
    req.on('error', reject);
  });
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

function formatHost(address: string): string {
  return address.includes(':') ? `[${address}]` : address;
}
