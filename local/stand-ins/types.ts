import fs from 'node:fs';
import net from 'node:net';
import type { Server } from 'node:http';
import path from 'node:path';

/** A stand-in service of the local stage, as the orchestrator sees it. */
export interface RunningService {
  readonly name: string;
  /** Base URL clients use, e.g. `http://127.0.0.1:4702`. */
  readonly endpoint: string;
  /** Stops the service and resolves once its port is released. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Dummy credentials shared by every local stand-in. DynamoDB Local and fauxqs accept any key, but
 * s3rver only knows the built-in account `S3RVER`/`S3RVER`: a signed request with another access
 * key id is rejected with InvalidAccessKeyId. Using one pair everywhere keeps the functions'
 * environment simple.
 */
export const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/**
 * Fails fast, with a message the developer can act on, when another process holds the port.
 * The probe binds and releases the port at once, so it cannot hold it against the real service.
 */
export async function assertPortFree(port: number, host: string, serviceName: string): Promise<void> {
  const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
    const probe = net.createServer();
    probe.unref();
    probe.once('error', (err: NodeJS.ErrnoException) => resolve(err));
    probe.listen({ port, host, exclusive: true }, () => {
      probe.close(() => resolve(null));
    });
  });
  if (!error) return;
  if (error.code === 'EADDRINUSE') {
    throw new Error(
      `El puerto ${port} (${serviceName}) está ocupado: cierre el proceso que lo usa o defina ` +
        `LOCAL_PORT_BASE=<otra base> (por ejemplo LOCAL_PORT_BASE=5700) para usar otros puertos. ` +
        `Para ver qué proceso lo usa: ss -ltnp | grep :${port}`,
    );
  }
  if (error.code === 'EACCES') {
    throw new Error(
      `No hay permiso para usar el puerto ${port} (${serviceName}): defina LOCAL_PORT_BASE con un puerto mayor que 1024.`,
    );
  }
  throw new Error(`No se pudo comprobar el puerto ${port} (${serviceName}) en ${host}: ${error.message}`);
}

/**
 * Opens a log file for appending, creating it (and its directory) before it returns: whatever reads
 * the file next (a tailer, a test, a child process given the descriptor) finds it. The caller closes
 * the descriptor.
 */
export function openLogFile(file: string): number {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return fs.openSync(file, 'a');
}

/**
 * A write stream appending to a log file that exists when this returns (`fs.createWriteStream` alone
 * opens the file later, asynchronously: a reader in between met ENOENT on a busy machine).
 */
export function createLogStream(file: string): fs.WriteStream {
  return fs.createWriteStream(file, { fd: openLogFile(file), flags: 'a' });
}

/**
 * Writes a whole file or nothing: into a temporary file beside it, flushed to disk, then renamed over
 * it. A reader (or the next start after a crash) sees the old content or the new, never half of it.
 */
export async function writeFileAtomic(file: string, content: string | Uint8Array, mode = 0o644): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const handle = await fs.promises.open(temp, 'w', mode);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.promises.rename(temp, file);
  } catch (error) {
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
}

export interface WaitForOptions {
  readonly timeoutMs: number;
  /** What is awaited, in Spanish, for the timeout message ("que DynamoDB Local responda"). */
  readonly what: string;
  readonly intervalMs?: number;
}

/**
 * Polls `check` until it returns true. A check that throws counts as "not yet"; its last error is
 * reported if time runs out.
 */
export async function waitFor(check: () => Promise<boolean>, options: WaitForOptions): Promise<void> {
  const { timeoutMs, what, intervalMs = 100 } = options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      if (await check()) return;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) break;
    await delay(Math.min(intervalMs, Math.max(0, deadline - Date.now())));
  }
  const cause = lastError instanceof Error ? ` Último error: ${lastError.message}` : '';
  throw new Error(`Se agotó el tiempo (${timeoutMs} ms) esperando ${what}.${cause}`, { cause: lastError });
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** How long the stand-ins tell a client it may keep an idle connection (the `Keep-Alive: timeout=` hint). */
export const ADVERTISED_IDLE_SECONDS = 5;
/** How long they keep one: far beyond the hint, as AWS's endpoints do. */
export const IDLE_HOLD_MS = 65_000;

/**
 * Keeps idle keep-alive connections well past what the server advertises. undici lets go of a connection one second
 * before the hint (at 4 s), and Node's server (20.20) closes it about one second after (at 6 s): a client whose event
 * loop stalls two seconds reuses a connection the server is closing and writes its request into it (`fetch failed
 * ... write EPIPE` for a POST, which no client retries). Clients now let go of a connection a minute before the
 * server does.
 */
export function outlastIdleClients(server: Server): void {
  server.keepAliveTimeout = IDLE_HOLD_MS;
  server.prependListener('request', (_request, response) => {
    response.setHeader('keep-alive', `timeout=${ADVERTISED_IDLE_SECONDS}`);
  });
}

/** Starts an HTTP server of ours on host:port and wraps it as a stand-in that closes every connection on stop. */
export async function listen(name: string, server: Server, port: number, host: string): Promise<RunningService> {
  outlastIdleClients(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    name,
    endpoint: `http://${host}:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Whether a process of this id runs (signal 0 checks without signalling). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
