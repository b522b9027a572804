import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { ADVERTISED_IDLE_SECONDS, IDLE_HOLD_MS, openLogFile } from '../types.js';

/**
 * cognito-local as a supervised child process: its config.json, the spawn with a watchdog that ends it
 * when the stage dies, the wait until it answers, and its stop. Its output goes straight into the log
 * file (watchCognitoLog below reads the codes back from there).
 */

export interface CognitoLocalOptions {
  /** cognito-local's working directory: its state lives in <workDir>/.cognito. */
  readonly workDir: string;
  readonly host: string;
  readonly port: number;
  /** The public endpoint (the proxy): the issuer written into tokens, which also serves the JWKS. */
  readonly issuerEndpoint: string;
  /** Lambda Invoke API endpoint serving the triggers (see lambda-endpoint.ts). */
  readonly lambdaEndpoint: string;
  /** Function name the PreTokenGeneration trigger is invoked with. */
  readonly triggerFunctionName: string;
  /** Where its stdout and stderr go. */
  readonly logFile: string;
}

export interface CognitoLocalProcess {
  /** Resolves with the exit code when the process ends, for whatever reason. */
  readonly exited: Promise<number | null>;
  /** Resolves once cognito-local answers its health check; rejects when it exits first or the time is up. */
  waitUntilReady(timeoutMs: number): Promise<void>;
  /** SIGTERM, then SIGKILL after 5 s; resolves when it has exited. */
  stop(): Promise<void>;
}

export async function writeCognitoLocalConfig(options: CognitoLocalOptions): Promise<void> {
  await mkdir(path.join(options.workDir, '.cognito'), { recursive: true });
  await writeFile(
    path.join(options.workDir, '.cognito', 'config.json'),
    `${JSON.stringify(cognitoLocalConfig(options), null, 2)}\n`,
  );
}

/** Spawns cognito-local (after writeCognitoLocalConfig); a SIGKILL follows it when the stage's process exits. */
export function launchCognitoLocal(options: CognitoLocalOptions): CognitoLocalProcess {
  const logFd = openLogFile(options.logFile);
  let child: ChildProcess;
  try {
    child = spawnCognitoLocal(options.workDir, options.host, options.port, logFd);
  } finally {
    closeSync(logFd);
  }
  const killOnExit = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const internalEndpoint = `http://${options.host}:${options.port}`;

  return {
    exited,
    waitUntilReady: (timeoutMs) => waitUntilReady(internalEndpoint, exited, timeoutMs),
    stop: async () => {
      process.off('exit', killOnExit);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function cognitoLocalConfig(options: CognitoLocalOptions): unknown {
  return {
    LambdaClient: {
      endpoint: options.lambdaEndpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      maxRetries: 0,
    },
    TriggerFunctions: { PreTokenGeneration: options.triggerFunctionName },
    // The issuer written into tokens: the public endpoint (the proxy), which also serves the JWKS.
    TokenConfig: { IssuerDomain: options.issuerEndpoint },
    UserPoolDefaults: { UsernameAttributes: ['email'] },
    // cognito-local honours this hostname: it listens on loopback only.
    ServerConfig: { port: options.port, hostname: options.host, https: false, development: false },
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
  const watchdog = `process.stdin.on('end', () => process.exit(0)); process.stdin.on('error', () => process.exit(0)); process.stdin.resume();`;
  // Its server keeps idle connections as the stage's own do (outlastIdleClients): with Node's 5 s, the proxy and the
  // hosted UI reused a connection cognito-local was closing, and a corporate sign-in failed with "socket hang up".
  const outlast = `const http = require('node:http'); const listen = http.Server.prototype.listen; http.Server.prototype.listen = function (...args) { this.keepAliveTimeout = ${IDLE_HOLD_MS}; this.prependListener('request', (_req, res) => res.setHeader('keep-alive', 'timeout=${ADVERTISED_IDLE_SECONDS}')); return listen.apply(this, args); };`;
  const script = `${watchdog} ${outlast} require(${JSON.stringify(bin)});`;
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

/**
 * What cognito-local prints, read back from its log file: the codes it would have e-mailed (sign-up
 * confirmation, forgot password, temporary passwords) and its last lines, for a failed start's message.
 * cognito-local writes the file itself (its own descriptor), so the codes are there at once even when the
 * stage's event loop is busy.
 */

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

export interface CognitoLog {
  /** Every code delivered since the watch began, oldest first. */
  codes(): readonly DeliveredCode[];
  /** Latest code sent to a user, by Username, sub or destination (e-mail), case-insensitive. */
  lastCodeFor(user: string): string | undefined;
  /** Waits for a code sent to the user after `since` (default: now); cognito-local prints it asynchronously. */
  waitForCode(user: string, options?: { since?: Date; timeoutMs?: number }): Promise<string>;
  /** The last 40 lines read. */
  recentLines(): readonly string[];
  /** Stops reading the file. */
  close(): void;
}

/** Reads the lines appended to `logFile` from now on, every `pollMs` and before each question about codes. */
export function watchCognitoLog(logFile: string, pollMs = 100): CognitoLog {
  const delivered: DeliveredCode[] = [];
  const recent: string[] = [];
  const events = new EventEmitter();
  const parser = new CodeParser((code) => {
    delivered.push(code);
    events.emit('code', code);
  });
  const poll = tailLines(logFile, (line) => {
    recent.push(line);
    if (recent.length > 40) recent.shift();
    parser.push(line);
  });
  const timer = setInterval(poll, pollMs);
  timer.unref();

  const matches = (code: DeliveredCode, user: string): boolean => {
    const wanted = user.toLowerCase();
    return code.username.toLowerCase() === wanted || code.destination?.toLowerCase() === wanted;
  };

  return {
    codes: () => [...delivered],
    lastCodeFor: (user) => {
      poll();
      return delivered.findLast((code) => matches(code, user))?.code;
    },
    waitForCode: (user, options = {}) => {
      poll();
      const since = options.since ?? new Date();
      const found = delivered.findLast((code) => matches(code, user) && code.at >= since);
      if (found) return Promise.resolve(found.code);
      return new Promise<string>((resolve, reject) => {
        const onCode = (code: DeliveredCode): void => {
          if (!matches(code, user)) return;
          clearTimeout(waited);
          events.off('code', onCode);
          resolve(code.code);
        };
        const waited = setTimeout(() => {
          events.off('code', onCode);
          reject(new Error(`cognito-local no entregó ningún código para ${user}`));
        }, options.timeoutMs ?? 5_000);
        events.on('code', onCode);
      });
    },
    recentLines: () => [...recent],
    close: () => clearInterval(timer),
  };
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
