import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createLogStream, type RunningService } from '../types.js';
import { createClientPermissions } from './access.js';
import {
  launchCognitoLocal,
  watchCognitoLog,
  writeCognitoLocalConfig,
  type CognitoLocalProcess,
  type DeliveredCode,
} from './cognito-local.js';
import { createMachineClients, NewPasswordChallenges } from './credentials.js';
import { createHostedUi, type FederationConfig } from './hosted-ui.js';
import { createProxy } from './proxy.js';
import { closeServer, listen } from './wire.js';

export type { DeliveredCode } from './cognito-local.js';
export { issuer, jwksUrl } from './proxy.js';

/**
 * The Cognito-compatible identity server of the local stage: cognito-local (a child process,
 * cognito-local.ts) behind a small proxy of ours (proxy.ts).
 *
 * - cognito-local listens on `internalPort`. Its bind address comes from ServerConfig.hostname of its
 *   config.json (or the HOST variable), so it binds to loopback only (127.0.0.1 by default).
 * - The proxy listens on `port`, the one endpoint clients use (SDK, web app, JWKS, issuer). It forwards
 *   every request unchanged except:
 *   - `GetTokensFromRefreshToken` (what aws-amplify v6 uses to refresh, unknown to cognito-local),
 *     rewritten into `InitiateAuth` REFRESH_TOKEN_AUTH and its answer reshaped (wire.ts);
 *   - failed sign-ins (`InitiateAuth`/`AdminInitiateAuth` with a wrong password, an unknown user or a
 *     bad refresh token), normalised to what Cognito answers: NotAuthorizedException (wire.ts);
 *   - successful sign-ins, completed with the ExpiresIn and TokenType that Cognito always answers;
 *   - `ListUsers`, paged by 60 as Cognito does (wire.ts);
 *   - the new-password challenge, bound to a checked temporary password, and disabled users refused
 *     (credentials.ts);
 *   - `AdminUserGlobalSignOut`, unknown to cognito-local: the user's refresh tokens are revoked as Cognito
 *     does (access.ts);
 *   - `GET /{userPoolId}/.well-known/openid-configuration`, which cognito-local answers with a fixed
 *     localhost:9229 issuer: the proxy answers it with the real issuer and JWKS URL;
 *   - the hosted UI's corporate sign-in (`/oauth2/authorize?identity_provider=…`, `/oauth2/idpresponse`,
 *     `/logout`), which cognito-local lacks: see hosted-ui.ts. Its own `/oauth2/authorize` login form
 *     and `/oauth2/token` (authorization code with PKCE, refresh) are forwarded as they are;
 *   - app clients with a secret (`CreateUserPoolClient` GenerateSecret, `DeleteUserPoolClient`) and the
 *     client-credentials grant at `/oauth2/token`, which cognito-local lacks: see credentials.ts;
 *   - calls a user makes with its own access token, SignUp and the new-password challenge: the token
 *     verified and its scope checked, and the app client's write permissions enforced (access.ts);
 *   - CORS: preflights are answered by the proxy, and every answer carries Access-Control-Allow-*
 *     (wire.ts).
 * - Tokens are signed with cognito-local's fixed RS256 key (kid "CognitoLocal"); the issuer inside
 *   them is `http://<host>:<port>/<userPoolId>` (TokenConfig.IssuerDomain = the proxy's endpoint), and
 *   the JWKS is served at `<issuer>/.well-known/jwks.json`.
 * - Codes it "sends" (sign-up confirmation, forgot password, temporary passwords) are printed by
 *   cognito-local to its stdout; they are parsed from there (cognito-local.ts) and offered through `codes()`,
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

export async function startCognito(options: CognitoOptions): Promise<RunningCognito> {
  const host = options.host ?? '127.0.0.1';
  const endpoint = `http://${host}:${options.port}`;
  const internalEndpoint = `http://${host}:${options.internalPort}`;
  const workDir = path.join(options.dataDir, 'cognito');
  const logDir = path.join(options.dataDir, 'logs');
  const logFile = path.join(logDir, 'cognito.log');
  const processOptions = {
    workDir,
    host,
    port: options.internalPort,
    issuerEndpoint: endpoint,
    lambdaEndpoint: options.lambdaEndpoint,
    triggerFunctionName: options.triggerFunctionName,
    logFile,
  };
  await writeCognitoLocalConfig(processOptions);
  await mkdir(logDir, { recursive: true });

  // The file exists from here on: the log watch below and tests read it before anything is written.
  const log = createLogStream(logFile);
  log.on('error', () => undefined); // a log that cannot be written must not bring the stage down
  log.write(`\n=== ${new Date().toISOString()} cognito-local en ${internalEndpoint}, proxy en ${endpoint} ===\n`);

  // The proxy binds first, so that a port already taken fails before a child process exists.
  const permissions = createClientPermissions({ endpoint, internalEndpoint });
  const hostedUi = createHostedUi({ endpoint, internalEndpoint, permissions });
  const proxy = createProxy({
    host,
    internalPort: options.internalPort,
    endpoint,
    log,
    hostedUi,
    challenges: new NewPasswordChallenges(hostedUi),
    permissions,
    dbDir: path.join(workDir, '.cognito', 'db'),
    machine: createMachineClients({
      workDir,
      endpoint,
      lambdaEndpoint: options.lambdaEndpoint,
      triggerFunctionName: options.triggerFunctionName,
    }),
  });
  await listen(proxy, options.port, host);

  const cognitoLog = watchCognitoLog(logFile);
  let child: CognitoLocalProcess;
  try {
    child = launchCognitoLocal(processOptions);
  } catch (error) {
    cognitoLog.close();
    await closeServer(proxy);
    throw error;
  }

  let stopping = false;
  void child.exited.then((code) => {
    if (!stopping && !log.writableEnded) log.write(`cognito-local terminó inesperadamente (código ${code})\n`);
  });

  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    cognitoLog.close();
    await closeServer(proxy);
    await child.stop();
    await new Promise<void>((resolve) => log.end(() => resolve()));
  };

  try {
    await child.waitUntilReady(options.startTimeoutMs ?? 30_000);
  } catch (error) {
    await stop();
    const recent = cognitoLog.recentLines();
    const detail = recent.length ? `\nÚltimas líneas de cognito-local:\n${recent.join('\n')}` : '';
    throw new Error(`${(error as Error).message}${detail}`);
  }

  return {
    name: 'cognito',
    endpoint,
    internalEndpoint,
    stop,
    federate: (config) => hostedUi.configure(config),
    readCodes: () => cognitoLog.codes().map((code) => code.code),
    codes: () => cognitoLog.codes(),
    lastCodeFor: (user) => cognitoLog.lastCodeFor(user),
    waitForCode: (user, waitOptions) => cognitoLog.waitForCode(user, waitOptions),
  };
}
