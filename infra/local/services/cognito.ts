import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { closeSync, openSync, readSync, statSync, type WriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { adminUserGlobalSignOut } from './cognito-sign-out.js';
import { createClientPermissions, type ClientPermissions } from './cognito-permissions.js';
import { createHostedUi, type FederationConfig, type HostedUi } from './hosted-ui.js';
import { createLogStream, openLogFile, type RunningService } from './types.js';

/**
 * The Cognito-compatible identity server of the local stage: cognito-local (a child process) behind a
 * small proxy of ours.
 *
 * - cognito-local listens on `internalPort`. Its bind address comes from ServerConfig.hostname of its
 *   config.json (or the HOST variable), so it binds to loopback only (127.0.0.1 by default).
 * - The proxy listens on `port`, the one endpoint clients use (SDK, web app, JWKS, issuer). It forwards
 *   every request unchanged except:
 *   - `GetTokensFromRefreshToken` (what aws-amplify v6 uses to refresh, unknown to cognito-local),
 *     rewritten into `InitiateAuth` REFRESH_TOKEN_AUTH and its answer reshaped;
 *   - failed sign-ins (`InitiateAuth`/`AdminInitiateAuth` with a wrong password, an unknown user or a
 *     bad refresh token), normalised to what Cognito answers: NotAuthorizedException;
 *   - successful sign-ins, completed with the ExpiresIn and TokenType that Cognito always answers;
 *   - `AdminUserGlobalSignOut`, unknown to cognito-local: the user's refresh tokens are revoked as Cognito
 *     does (cognito-sign-out.ts);
 *   - `GET /{userPoolId}/.well-known/openid-configuration`, which cognito-local answers with a fixed
 *     localhost:9229 issuer: the proxy answers it with the real issuer and JWKS URL;
 *   - the hosted UI's corporate sign-in (`/oauth2/authorize?identity_provider=…`, `/oauth2/idpresponse`,
 *     `/logout`), which cognito-local lacks: see hosted-ui.ts. Its own `/oauth2/authorize` login form
 *     and `/oauth2/token` (authorization code with PKCE, refresh) are forwarded as they are;
 *   - calls a user makes with its own access token, SignUp and the new-password challenge: the token
 *     verified and its scope checked, and the app client's write permissions enforced (cognito-permissions.ts);
 *   - CORS: preflights are answered by the proxy, and every answer carries Access-Control-Allow-*.
 * - Tokens are signed with cognito-local's fixed RS256 key (kid "CognitoLocal"); the issuer inside
 *   them is `http://<host>:<port>/<userPoolId>` (TokenConfig.IssuerDomain = the proxy's endpoint), and
 *   the JWKS is served at `<issuer>/.well-known/jwks.json`.
 * - Codes it "sends" (sign-up confirmation, forgot password, temporary passwords) are printed by
 *   cognito-local to its stdout; they are parsed from there and offered through `codes()`,
 *   `lastCodeFor()` and `waitForCode()`. Everything it prints goes to <dataDir>/logs/cognito.log.
 */

export interface CognitoOptions {
  /** Public port: the proxy clients talk to. */
  readonly port: number;
  /** Port of cognito-local itself. */
  readonly internalPort: number;
  readonly host?: string;
  /** Stage data directory: cognito-local keeps its state in <dataDir>/cognito/.cognito. */
  readonly dataDir: string;
  /** Lambda Invoke API endpoint serving the triggers (see lambda-endpoint.ts). */
  readonly lambdaEndpoint: string;
  /** Function name the PreTokenGeneration trigger is invoked with. */
  readonly triggerFunctionName: string;
  /** How long to wait for cognito-local to answer (default 30 s). */
  readonly startTimeoutMs?: number;
}

/** A code cognito-local would have sent by e-mail or SMS. */
export interface DeliveredCode {
  /** The user's Username (with e-mail sign-in, its sub). */
  readonly username: string;
  /** Where it would have gone (the e-mail address or phone number), when printed. */
  readonly destination: string | null;
  readonly code: string;
  /** The operation that sent it (ForgotPassword, SignUp, AdminCreateUser, ...), when printed. */
  readonly operation: string | null;
  readonly at: Date;
}

export interface RunningCognito extends RunningService {
  /** cognito-local itself, without the proxy (for diagnostics only). */
  readonly internalEndpoint: string;
  /** Enables corporate sign-in through the hosted UI once the pool, its client and the IdP exist. */
  federate(config: FederationConfig): void;
  /** Every code delivered since start, oldest first. */
  readCodes(): string[];
  codes(): readonly DeliveredCode[];
  /** Latest code sent to a user, by Username, sub or destination (e-mail), case-insensitive. */
  lastCodeFor(user: string): string | undefined;
  /** Waits for a code sent to the user after `since` (default: now); cognito-local prints it asynchronously. */
  waitForCode(user: string, options?: { since?: Date; timeoutMs?: number }): Promise<string>;
}

const TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';
const AMZ_JSON = 'application/x-amz-json-1.1';
const CORS_ALLOW_HEADERS =
  'content-type, x-amz-target, x-amz-user-agent, x-amz-date, x-amz-security-token, authorization, cache-control, amz-sdk-invocation-id, amz-sdk-request';
const CORS_EXPOSE_HEADERS = 'x-amzn-requestid, x-amzn-errortype, x-amzn-errormessage, date';

export function issuer(endpoint: string, userPoolId: string): string {
  return `${endpoint.replace(/\/+$/, '')}/${userPoolId}`;
}

export function jwksUrl(endpoint: string, userPoolId: string): string {
  return `${issuer(endpoint, userPoolId)}/.well-known/jwks.json`;
}

export async function startCognito(options: CognitoOptions): Promise<RunningCognito> {
  const host = options.host ?? '127.0.0.1';
  const endpoint = `http://${host}:${options.port}`;
  const internalEndpoint = `http://${host}:${options.internalPort}`;
  const workDir = path.join(options.dataDir, 'cognito');
  const logDir = path.join(options.dataDir, 'logs');
  await mkdir(path.join(workDir, '.cognito'), { recursive: true });
  await mkdir(logDir, { recursive: true });
  await writeFile(
    path.join(workDir, '.cognito', 'config.json'),
    `${JSON.stringify(cognitoLocalConfig(options, host, endpoint), null, 2)}\n`,
  );

  const logFile = path.join(logDir, 'cognito.log');
  // The file exists from here on: the tailer below and tests read it before anything is written.
  const log = createLogStream(logFile);
  log.on('error', () => undefined); // a log that cannot be written must not bring the stage down
  log.write(`\n=== ${new Date().toISOString()} cognito-local en ${internalEndpoint}, proxy en ${endpoint} ===\n`);
  const delivered: DeliveredCode[] = [];
  const events = new EventEmitter();
  const parser = new CodeParser((code) => {
    delivered.push(code);
    events.emit('code', code);
  });

  // The proxy binds first, so that a port already taken fails before a child process exists.
  const permissions = createClientPermissions({ endpoint, internalEndpoint });
  const hostedUi = createHostedUi({ endpoint, internalEndpoint, permissions });
  const challenges = new NewPasswordChallenges(hostedUi);
  const proxy = createProxy({
    host,
    internalPort: options.internalPort,
    endpoint,
    log,
    hostedUi,
    challenges,
    permissions,
    dbDir: path.join(workDir, '.cognito', 'db'),
  });
  await listen(proxy, options.port, host);

  // cognito-local writes straight into the log file (its own descriptor), so the codes it "e-mails" are there
  // at once even when the stage's event loop is busy; the stage reads them back from the file.
  const tail = tailLines(logFile, (line) => onLine(line));
  let child: ChildProcess;
  const childLog = openLogFile(logFile);
  try {
    child = spawnCognitoLocal(workDir, host, options.internalPort, childLog);
  } catch (error) {
    await closeServer(proxy);
    throw error;
  } finally {
    closeSync(childLog);
  }
  const killOnExit = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);

  const recent: string[] = [];
  const onLine = (line: string): void => {
    recent.push(line);
    if (recent.length > 40) recent.shift();
    parser.push(line);
  };
  const tailer = setInterval(tail, 100);
  tailer.unref();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  let stopping = false;
  void exited.then((code) => {
    if (!stopping && !log.writableEnded) log.write(`cognito-local terminó inesperadamente (código ${code})\n`);
  });

  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    process.off('exit', killOnExit);
    clearInterval(tailer);
    await closeServer(proxy);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    await new Promise<void>((resolve) => log.end(() => resolve()));
  };

  try {
    await waitUntilReady(internalEndpoint, exited, options.startTimeoutMs ?? 30_000);
  } catch (error) {
    await stop();
    const detail = recent.length ? `\nÚltimas líneas de cognito-local:\n${recent.join('\n')}` : '';
    throw new Error(`${(error as Error).message}${detail}`);
  }

  const matches = (code: DeliveredCode, user: string): boolean => {
    const wanted = user.toLowerCase();
    return code.username.toLowerCase() === wanted || code.destination?.toLowerCase() === wanted;
  };

  return {
    name: 'cognito',
    endpoint,
    internalEndpoint,
    stop,
    federate: (config) => hostedUi.configure(config),
    readCodes: () => delivered.map((code) => code.code),
    codes: () => [...delivered],
    lastCodeFor: (user) => {
      tail();
      return delivered.findLast((code) => matches(code, user))?.code;
    },
    waitForCode: (user, waitOptions = {}) => {
      tail();
      const since = waitOptions.since ?? new Date();
      const found = delivered.findLast((code) => matches(code, user) && code.at >= since);
      if (found) return Promise.resolve(found.code);
      return new Promise<string>((resolve, reject) => {
        const onCode = (code: DeliveredCode): void => {
          if (!matches(code, user)) return;
          clearTimeout(timer);
          events.off('code', onCode);
          resolve(code.code);
        };
        const timer = setTimeout(() => {
          events.off('code', onCode);
          reject(new Error(`cognito-local no entregó ningún código para ${user}`));
        }, waitOptions.timeoutMs ?? 5_000);
        events.on('code', onCode);
      });
    },
  };
}

function cognitoLocalConfig(options: CognitoOptions, host: string, endpoint: string): unknown {
  return {
    LambdaClient: {
      endpoint: options.lambdaEndpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      maxRetries: 0,
    },
    TriggerFunctions: { PreTokenGeneration: options.triggerFunctionName },
    // The issuer written into tokens: the public endpoint (the proxy), which also serves the JWKS.
    TokenConfig: { IssuerDomain: endpoint },
    UserPoolDefaults: { UsernameAttributes: ['email'] },
    // cognito-local honours this hostname: it listens on loopback only.
    ServerConfig: { port: options.internalPort, hostname: host, https: false, development: false },
  };
}

function spawnCognitoLocal(workDir: string, host: string, port: number, logFd: number): ChildProcess {
  const require = createRequire(import.meta.url);
  const packageDir = path.dirname(require.resolve('cognito-local/package.json'));
  const bin = path.join(packageDir, 'lib', 'bin', 'start.js');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: host,
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE: '1',
  };
  // DEBUG would make cognito-local log every request body, tokens and passwords included.
  delete env.DEBUG;
  delete env.COGNITO_LOCAL_DEVMODE;
  delete env.CODE;
  // A watchdog around the CLI: when this process dies, even by SIGKILL, the stdin pipe closes and the
  // child exits, so that no orphaned cognito-local keeps the port.
  const script = `process.stdin.on('end', () => process.exit(0)); process.stdin.on('error', () => process.exit(0)); process.stdin.resume(); require(${JSON.stringify(bin)});`;
  return spawn(process.execPath, ['-e', script], { cwd: workDir, env, stdio: ['pipe', logFd, logFd] });
}

async function waitUntilReady(
  internalEndpoint: string,
  exited: Promise<number | null>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | null | undefined;
  void exited.then((code) => {
    exitCode = code;
  });
  for (;;) {
    if (exitCode !== undefined) throw new Error(`cognito-local terminó al arrancar (código ${exitCode})`);
    try {
      const response = await fetch(`${internalEndpoint}/health`, { signal: AbortSignal.timeout(1_000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`cognito-local no respondió en ${internalEndpoint} en ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Recognises the boxes cognito-local prints for each code it would deliver. */
class CodeParser {
  private current: { operation: string | null; username?: string; destination?: string } | null = null;

  constructor(private readonly onCode: (code: DeliveredCode) => void) {}

  push(line: string): void {
    if (line.includes('Confirmation Code Delivery')) {
      this.current = { operation: this.current?.operation ?? null };
      return;
    }
    // The box starts on the log line of the operation: "[time] INFO: <reqId> <Target> ╭───╮".
    const header = /INFO:\s+\S+\s+(\S+)\s+╭/.exec(line);
    if (header) {
      this.current = { operation: header[1] === 'NONE' ? null : (header[1] ?? null) };
      return;
    }
    if (!this.current) return;
    const field = /^\s*│\s*(Username|Destination|Code):\s+(.*?)\s*│\s*$/.exec(line);
    if (field) {
      const [, name, value = ''] = field;
      if (name === 'Username') this.current.username = value;
      else if (name === 'Destination') this.current.destination = value;
      else if (this.current.username) {
        this.onCode({
          username: this.current.username,
          destination: this.current.destination ?? null,
          code: value,
          operation: this.current.operation,
          at: new Date(),
        });
      }
      return;
    }
    if (/^\s*╰/.test(line)) this.current = null;
  }
}

/**
 * Reads the lines appended to `file` since the call that made it, on each call of the function it returns
 * (partial last lines wait for their end).
 */
function tailLines(file: string, onLine: (line: string) => void): () => void {
  let offset = statSync(file).size;
  let carry = '';
  const buffer = Buffer.alloc(64 * 1024);
  const decoder = new StringDecoder('utf8');
  return () => {
    const fd = openSync(file, 'r');
    try {
      for (;;) {
        const read = readSync(fd, buffer, 0, buffer.length, offset);
        if (read === 0) break;
        offset += read;
        const lines = (carry + decoder.write(buffer.subarray(0, read))).split('\n');
        carry = lines.pop() ?? '';
        for (const line of lines) onLine(stripAnsi(line));
      }
    } finally {
      closeSync(fd);
    }
  };
}

function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '').replace(/\r$/, '');
}

// ---------------------------------------------------------------------------------------------
// The proxy
// ---------------------------------------------------------------------------------------------

interface ProxyContext {
  readonly host: string;
  readonly internalPort: number;
  readonly endpoint: string;
  readonly log: WriteStream;
  readonly hostedUi: HostedUi;
  readonly challenges: NewPasswordChallenges;
  /** Access tokens, their scope and the app client's write permissions, checked as Cognito does. */
  readonly permissions: ClientPermissions;
  /** cognito-local's store (one JSON file per pool, clients.json). */
  readonly dbDir: string;
}

interface UpstreamResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
}

function createProxy(ctx: ProxyContext): http.Server {
  return http.createServer((req, res) => {
    void handleProxyRequest(ctx, req, res).catch((error: unknown) => {
      if (!ctx.log.writableEnded)
        ctx.log.write(`[proxy] error atendiendo ${req.method} ${req.url}: ${String(error)}\n`);
      if (!res.headersSent) {
        sendJson(req, res, 502, {
          __type: 'InternalErrorException',
          message: 'El servidor Cognito local no respondió',
        });
      } else {
        res.destroy();
      }
    });
  });
}

async function handleProxyRequest(
  ctx: ProxyContext,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  if (req.method === 'OPTIONS') {
    res.writeHead(204, {
      ...corsHeaders(req),
      'Access-Control-Allow-Methods': 'GET, HEAD, POST, OPTIONS',
      'Access-Control-Allow-Headers': headerValue(req, 'access-control-request-headers') ?? CORS_ALLOW_HEADERS,
      'Access-Control-Max-Age': '600',
      'Content-Length': '0',
    });
    res.end();
    return;
  }

  const body = await readBody(req);
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (await ctx.hostedUi.handle(req, res, url)) return;

  const discovery = /^\/([^/]+)\/\.well-known\/openid-configuration$/.exec(url.pathname);
  if (req.method === 'GET' && discovery?.[1]) {
    const poolId = decodeURIComponent(discovery[1]);
    sendJson(req, res, 200, {
      issuer: issuer(ctx.endpoint, poolId),
      jwks_uri: jwksUrl(ctx.endpoint, poolId),
      id_token_signing_alg_values_supported: ['RS256'],
      subject_types_supported: ['public'],
      response_types_supported: ['code'],
    });
    return;
  }

  const target = headerValue(req, 'x-amz-target');
  const operation = target?.startsWith(TARGET_PREFIX) ? target.slice(TARGET_PREFIX.length) : undefined;

  if (req.method === 'POST' && operation) {
    const refused = await ctx.permissions.check(operation, body);
    if (refused) {
      sendJson(req, res, 400, refused, { 'x-amzn-ErrorType': refused.__type });
      return;
    }
  }

  if (req.method === 'POST' && operation === 'GetTokensFromRefreshToken') {
    await getTokensFromRefreshToken(ctx, req, res, body);
    return;
  }

  if (req.method === 'POST' && operation === 'AdminUserGlobalSignOut') {
    const answer = await adminUserGlobalSignOut(
      ctx.dbDir,
      async (name, input) => {
        const upstream = await forward(ctx, req, Buffer.from(JSON.stringify(input)), `${TARGET_PREFIX}${name}`);
        return { status: upstream.status, body: parseJson(upstream.body) };
      },
      parseJson(body),
    );
    const type = (answer.body as { __type?: string } | null)?.__type;
    sendJson(req, res, answer.status, answer.body, type ? { 'x-amzn-ErrorType': type } : {});
    return;
  }

  if (req.method === 'POST' && operation === 'ListUsers') {
    await listUsersPage(ctx, req, res, body);
    return;
  }

  if (req.method === 'POST' && operation === 'RespondToAuthChallenge') {
    const refused = ctx.challenges.check(body);
    if (refused) {
      sendJson(req, res, 400, refused, { 'x-amzn-ErrorType': refused.__type });
      return;
    }
  }

  const upstream = await forward(ctx, req, body);
  if (req.method === 'POST' && operation === 'InitiateAuth') {
    const refused =
      (await ctx.challenges.refuseDisabled(body, upstream)) ?? (await ctx.challenges.admit(body, upstream));
    if (refused) {
      sendJson(req, res, 400, refused, { 'x-amzn-ErrorType': refused.__type });
      return;
    }
  }
  if (req.method === 'POST' && operation && AUTH_OPERATIONS.has(operation)) {
    const disabled = operation === 'InitiateAuth' ? null : await ctx.challenges.refuseDisabled(body, upstream);
    if (disabled) {
      sendJson(req, res, 400, disabled, { 'x-amzn-ErrorType': disabled.__type });
      return;
    }
    const normalised = normaliseAuthError(body, upstream);
    if (normalised) {
      sendJson(req, res, 400, normalised, { 'x-amzn-ErrorType': normalised.__type });
      return;
    }
    const completed = completeAuthenticationResult(upstream);
    if (completed) {
      sendJson(req, res, 200, completed);
      return;
    }
  }
  send(req, res, upstream.status, upstream.headers, upstream.body);
}

type AuthRefusal = { __type: string; message: string };

/**
 * ListUsers pages: Cognito answers at most `Limit` (default and maximum 60) users and a PaginationToken
 * for the rest; cognito-local answers them all at once. Its order is stable (insertion order), so an
 * offset in the token pages it the way Cognito does.
 */
async function listUsersPage(
  ctx: ProxyContext,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  body: Buffer,
): Promise<void> {
  const request = parseJson(body);
  if (!isRecord(request)) {
    send(req, res, 400, { 'content-type': AMZ_JSON }, Buffer.from('{"__type":"SerializationException"}'));
    return;
  }
  const { Limit, PaginationToken, ...rest } = request;
  const limit = typeof Limit === 'number' ? Limit : 60;
  if (!Number.isInteger(limit) || limit < 1 || limit > 60) {
    sendJson(req, res, 400, { __type: 'InvalidParameterException', message: 'Limit must be between 1 and 60' });
    return;
  }
  const offset = typeof PaginationToken === 'string' ? Number(Buffer.from(PaginationToken, 'base64url').toString()) : 0;
  if (!Number.isInteger(offset) || offset < 0) {
    sendJson(req, res, 400, { __type: 'InvalidParameterException', message: 'Invalid pagination token' });
    return;
  }
  const upstream = await forward(ctx, req, Buffer.from(JSON.stringify(rest)));
  const answer = parseJson(upstream.body);
  if (upstream.status !== 200 || !isRecord(answer) || !Array.isArray(answer.Users)) {
    send(req, res, upstream.status, upstream.headers, upstream.body);
    return;
  }
  const users = answer.Users.slice(offset, offset + limit);
  const next = offset + limit < answer.Users.length ? Buffer.from(String(offset + limit)).toString('base64url') : null;
  sendJson(req, res, 200, { ...answer, Users: users, ...(next ? { PaginationToken: next } : {}) });
}

/** Who a successful sign-in, refresh or challenge answer is for: its ID token's username, else the request's. */
function signedInUser(requestBody: Buffer, upstream: UpstreamResponse): string | null {
  if (upstream.status !== 200) return null;
  const answer = parseJson(upstream.body);
  if (!isRecord(answer)) return null;
  const result = isRecord(answer.AuthenticationResult) ? answer.AuthenticationResult : null;
  if (result && typeof result.IdToken === 'string') {
    const payload = parseJson(Buffer.from(result.IdToken.split('.')[1] ?? '', 'base64url'));
    if (isRecord(payload) && typeof payload['cognito:username'] === 'string') return payload['cognito:username'];
  }
  const request = parseJson(requestBody);
  if (!isRecord(request)) return null;
  const parameters = isRecord(request.AuthParameters)
    ? request.AuthParameters
    : isRecord(request.ChallengeResponses)
      ? request.ChallengeResponses
      : {};
  return typeof parameters.USERNAME === 'string' ? parameters.USERNAME : null;
}

/**
 * cognito-local answers USER_PASSWORD_AUTH for a user who must change a temporary password with the
 * NEW_PASSWORD_REQUIRED challenge without checking the password, and accepts any Session string in
 * RespondToAuthChallenge: anyone knowing an invited supplier's e-mail could set its password. Cognito
 * checks the temporary password first and binds the challenge to the session it issued. This guard
 * restores both: the password is checked through cognito-local's own hosted login (which compares it),
 * and only sessions issued after that check, for that user and for three minutes, are accepted.
 */
class NewPasswordChallenges {
  private readonly sessions = new Map<string, { usernames: string[]; expiresAt: number }>();

  constructor(private readonly hostedUi: HostedUi) {}

  /**
   * cognito-local signs disabled users in, refreshes their tokens and completes their challenges;
   * Cognito answers NotAuthorizedException "User is disabled." to each.
   */
  async refuseDisabled(requestBody: Buffer, upstream: UpstreamResponse): Promise<AuthRefusal | null> {
    const username = signedInUser(requestBody, upstream);
    if (!username || !(await this.hostedUi.isDisabled(username))) return null;
    return { __type: 'NotAuthorizedException', message: 'User is disabled.' };
  }

  async admit(requestBody: Buffer, upstream: UpstreamResponse): Promise<AuthRefusal | null> {
    if (upstream.status !== 200) return null;
    const answer = parseJson(upstream.body);
    const request = parseJson(requestBody);
    if (!isRecord(answer) || answer.ChallengeName !== 'NEW_PASSWORD_REQUIRED' || !isRecord(request)) return null;
    const parameters = isRecord(request.AuthParameters) ? request.AuthParameters : {};
    const username = typeof parameters.USERNAME === 'string' ? parameters.USERNAME : '';
    const password = typeof parameters.PASSWORD === 'string' ? parameters.PASSWORD : '';
    const clientId = typeof request.ClientId === 'string' ? request.ClientId : '';
    if (!(await this.hostedUi.checkPassword(clientId, username, password))) {
      return { __type: 'NotAuthorizedException', message: 'Incorrect username or password.' };
    }
    const now = Date.now();
    for (const [key, value] of this.sessions) if (value.expiresAt < now) this.sessions.delete(key);
    if (typeof answer.Session === 'string') {
      // The answer may name the user by the e-mail it signed in with or by its Username (USER_ID_FOR_SRP).
      const parameters = isRecord(answer.ChallengeParameters) ? answer.ChallengeParameters : {};
      const usernames = [username, parameters.USER_ID_FOR_SRP, parameters.USERNAME]
        .filter((name): name is string => typeof name === 'string' && name.length > 0)
        .map((name) => name.toLowerCase());
      this.sessions.set(answer.Session, { usernames, expiresAt: now + 3 * 60_000 });
    }
    return null;
  }

  check(requestBody: Buffer): AuthRefusal | null {
    const request = parseJson(requestBody);
    if (!isRecord(request) || request.ChallengeName !== 'NEW_PASSWORD_REQUIRED') return null;
    const responses = isRecord(request.ChallengeResponses) ? request.ChallengeResponses : {};
    const username = typeof responses.USERNAME === 'string' ? responses.USERNAME.toLowerCase() : '';
    const session = typeof request.Session === 'string' ? this.sessions.get(request.Session) : undefined;
    if (!session || session.expiresAt < Date.now() || !session.usernames.includes(username)) {
      return { __type: 'NotAuthorizedException', message: 'Invalid session for the user.' };
    }
    this.sessions.delete(request.Session as string);
    return null;
  }
}

const AUTH_OPERATIONS = new Set([
  'InitiateAuth',
  'AdminInitiateAuth',
  'RespondToAuthChallenge',
  'AdminRespondToAuthChallenge',
]);

/**
 * Cognito always answers ExpiresIn and TokenType beside the tokens; cognito-local leaves them out.
 * Returns the completed answer, or null when there is nothing to complete.
 */
function completeAuthenticationResult(upstream: UpstreamResponse): Record<string, unknown> | null {
  if (upstream.status !== 200) return null;
  const answer = parseJson(upstream.body);
  if (!isRecord(answer) || !isRecord(answer.AuthenticationResult)) return null;
  const result = answer.AuthenticationResult;
  if (typeof result.AccessToken !== 'string') return null;
  if (typeof result.ExpiresIn === 'number' && typeof result.TokenType === 'string') return null;
  return {
    ...answer,
    AuthenticationResult: {
      ...result,
      ExpiresIn: typeof result.ExpiresIn === 'number' ? result.ExpiresIn : expiresIn(result.AccessToken),
      TokenType: typeof result.TokenType === 'string' ? result.TokenType : 'Bearer',
    },
  };
}

/**
 * cognito-local answers a wrong password with InvalidPasswordException (in Cognito that means a
 * password-policy violation) and an unknown user or a bad refresh token with "User not authorized".
 * Cognito answers NotAuthorizedException "Incorrect username or password." (user-existence errors
 * prevented) and "Invalid Refresh Token." respectively.
 */
function normaliseAuthError(
  requestBody: Buffer,
  upstream: UpstreamResponse,
): { __type: string; message: string } | null {
  if (upstream.status !== 400) return null;
  const payload = parseJson(upstream.body);
  if (!isRecord(payload)) return null;
  const request = parseJson(requestBody);
  const flow = isRecord(request) && typeof request.AuthFlow === 'string' ? request.AuthFlow : '';
  const passwordFlow =
    flow === 'USER_PASSWORD_AUTH' || flow === 'ADMIN_USER_PASSWORD_AUTH' || flow === 'ADMIN_NO_SRP_AUTH';
  const refreshFlow = flow === 'REFRESH_TOKEN_AUTH' || flow === 'REFRESH_TOKEN';
  const genericDenial = payload.__type === 'NotAuthorizedException' && payload.message === 'User not authorized';
  if (passwordFlow && (payload.__type === 'InvalidPasswordException' || genericDenial)) {
    return { __type: 'NotAuthorizedException', message: 'Incorrect username or password.' };
  }
  if (refreshFlow && genericDenial) return { __type: 'NotAuthorizedException', message: 'Invalid Refresh Token.' };
  return null;
}

/** GetTokensFromRefreshToken → InitiateAuth REFRESH_TOKEN_AUTH, answered in GetTokensFromRefreshToken's shape. */
async function getTokensFromRefreshToken(
  ctx: ProxyContext,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  body: Buffer,
): Promise<void> {
  const request = parseJson(body);
  if (!isRecord(request)) {
    sendJson(req, res, 400, {
      __type: 'SerializationException',
      message: 'El cuerpo de la solicitud no es JSON válido',
    });
    return;
  }
  const refreshToken = typeof request.RefreshToken === 'string' ? request.RefreshToken : undefined;
  const clientId = typeof request.ClientId === 'string' ? request.ClientId : undefined;
  if (!refreshToken || !clientId) {
    sendJson(req, res, 400, {
      __type: 'InvalidParameterException',
      message: 'ClientId and RefreshToken are required',
    });
    return;
  }
  const authParameters: Record<string, string> = { REFRESH_TOKEN: refreshToken };
  if (typeof request.DeviceKey === 'string') authParameters.DEVICE_KEY = request.DeviceKey;
  const initiateAuth = {
    AuthFlow: 'REFRESH_TOKEN_AUTH',
    ClientId: clientId,
    AuthParameters: authParameters,
    ...(isRecord(request.ClientMetadata) ? { ClientMetadata: request.ClientMetadata } : {}),
  };
  const rewritten = Buffer.from(JSON.stringify(initiateAuth));
  const upstream = await forward(ctx, req, rewritten, `${TARGET_PREFIX}InitiateAuth`);
  const normalised =
    (await ctx.challenges.refuseDisabled(rewritten, upstream)) ?? normaliseAuthError(rewritten, upstream);
  if (normalised) {
    sendJson(req, res, 400, normalised, { 'x-amzn-ErrorType': normalised.__type });
    return;
  }
  if (upstream.status !== 200) {
    send(req, res, upstream.status, upstream.headers, upstream.body);
    return;
  }
  const answer = parseJson(upstream.body);
  const result = isRecord(answer) && isRecord(answer.AuthenticationResult) ? answer.AuthenticationResult : undefined;
  if (!result || typeof result.AccessToken !== 'string' || typeof result.IdToken !== 'string') {
    sendJson(req, res, 500, {
      __type: 'InternalErrorException',
      message: 'Respuesta inesperada de cognito-local al renovar',
    });
    return;
  }
  sendJson(req, res, 200, {
    AuthenticationResult: {
      AccessToken: result.AccessToken,
      IdToken: result.IdToken,
      ExpiresIn: typeof result.ExpiresIn === 'number' ? result.ExpiresIn : expiresIn(result.AccessToken),
      TokenType: 'Bearer',
      // cognito-local does not rotate refresh tokens: the one presented stays valid.
      RefreshToken: typeof result.RefreshToken === 'string' ? result.RefreshToken : refreshToken,
    },
  });
}

/** Seconds an access token lives (exp - iat), 3600 when it cannot be read. */
function expiresIn(jwt: string): number {
  const payload = parseJson(Buffer.from(jwt.split('.')[1] ?? '', 'base64url'));
  if (isRecord(payload) && typeof payload.exp === 'number' && typeof payload.iat === 'number') {
    return payload.exp - payload.iat;
  }
  return 3600;
}

function forward(
  ctx: ProxyContext,
  req: http.IncomingMessage,
  body: Buffer,
  target?: string,
): Promise<UpstreamResponse> {
  const headers: http.OutgoingHttpHeaders = { ...req.headers, host: `${ctx.host}:${ctx.internalPort}` };
  delete headers['content-length'];
  delete headers['transfer-encoding'];
  delete headers.connection;
  if (body.length > 0 || req.method === 'POST') headers['content-length'] = body.length;
  if (target) {
    headers['x-amz-target'] = target;
    headers['content-type'] = AMZ_JSON;
  }
  return new Promise((resolve, reject) => {
    const upstream = http.request(
      { host: ctx.host, port: ctx.internalPort, method: req.method, path: req.url, headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 502, headers: response.headers, body: Buffer.concat(chunks) }),
        );
        response.on('error', reject);
      },
    );
    upstream.on('error', reject);
    upstream.setTimeout(30_000, () => upstream.destroy(new Error('timeout de cognito-local')));
    upstream.end(body);
  });
}

function send(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  status: number,
  upstreamHeaders: http.IncomingHttpHeaders,
  body: Buffer,
): void {
  const headers: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(upstreamHeaders)) {
    if (value === undefined) continue;
    if (['connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(name)) continue;
    if (name.startsWith('access-control-')) continue;
    headers[name] = value;
  }
  res.writeHead(status, { ...headers, ...corsHeaders(req), 'content-length': body.length });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function sendJson(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  status: number,
  payload: unknown,
  extraHeaders: Record<string, string> = {},
): void {
  send(req, res, status, { 'content-type': AMZ_JSON, ...extraHeaders }, Buffer.from(JSON.stringify(payload)));
}

function corsHeaders(req: http.IncomingMessage): Record<string, string> {
  const origin = headerValue(req, 'origin');
  return {
    'Access-Control-Allow-Origin': origin ?? '*',
    'Access-Control-Expose-Headers': CORS_EXPOSE_HEADERS,
    ...(origin ? { Vary: 'Origin' } : {}),
  };
}

function headerValue(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
