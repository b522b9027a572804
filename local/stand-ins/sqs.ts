import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildApp, type BuildAppOptions } from 'fauxqs';
import { assertPortFree, type RunningService } from './types.js';

export interface SqsOptions {
  readonly port: number;
  /** Bind address (the local stage uses 127.0.0.1). */
  readonly host: string;
  /** Region used when a request carries none in its signature (default us-east-1). */
  readonly region?: string;
}

type FauxqsStores = NonNullable<BuildAppOptions['stores']>;

/**
 * Runs fauxqs (an in-memory SQS emulator speaking the JSON protocol of @aws-sdk/client-sqs) in
 * this process. Queues and messages live in memory: they are gone after stop(), so provisioning
 * runs on every start.
 *
 * Queue URLs: by default fauxqs names queues `http://sqs.<region>.localhost:<port>/...`, a host that
 * does not resolve on Linux, and the SDK sends requests to the queue URL's host unless the client
 * has an explicit endpoint. fauxqs builds the URL from the request's Host header when its store has
 * no host configured, which `buildApp` cannot express, so the stores are built here with an empty
 * host: queue URLs become `http://127.0.0.1:<port>/000000000000/<name>`, usable as they are.
 *
 * Semantics we rely on (read from fauxqs 1.9.2 dist/sqs/sqsStore.js): see the notes at the top of
 * local/runtime/poller.ts.
 */
export async function startSqs(options: SqsOptions): Promise<RunningService> {
  const { port, host } = options;
  await assertPortFree(port, host, 'SQS');

  const stores = await createStores();
  const app = buildApp({ logger: false, defaultRegion: options.region ?? 'us-east-1', stores });
  await app.listen({ port, host });
  const endpoint = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  let stopping: Promise<void> | undefined;
  return {
    name: 'sqs',
    endpoint,
    stop() {
      // fauxqs closes with forceCloseConnections and releases pending long polls first.
      stopping ??= (async () => {
        await app.close();
      })();
      return stopping;
    },
  };
}

/** The store classes are not in fauxqs's package exports; they are loaded from its dist folder. */
async function createStores(): Promise<FauxqsStores> {
  const distDir = path.join(fauxqsPackageDir(), 'dist');
  const load = async <T>(relative: string, exportName: string): Promise<new () => T> => {
    const module = (await import(pathToFileURL(path.join(distDir, relative)).href)) as Record<string, unknown>;
    const ctor = module[exportName];
    if (typeof ctor !== 'function') {
      throw new Error(
        `fauxqs no exporta ${exportName} en dist/${relative}: la versión instalada no es la esperada (1.9.x). Ejecute "npm ci".`,
      );
    }
    return ctor as new () => T;
  };
  const SqsStore = await load<FauxqsStores['sqsStore']>('sqs/sqsStore.js', 'SqsStore');
  const SnsStore = await load<FauxqsStores['snsStore']>('sns/snsStore.js', 'SnsStore');
  const S3Store = await load<FauxqsStores['s3Store']>('s3/s3Store.js', 'S3Store');
  const sqsStore = new SqsStore();
  // Empty host: queue URLs take the host the client used (see above).
  sqsStore.host = '';
  return { sqsStore, snsStore: new SnsStore(), s3Store: new S3Store() };
}

function fauxqsPackageDir(): string {
  const require = createRequire(import.meta.url);
  for (const nodeModules of require.resolve.paths('fauxqs') ?? []) {
    const dir = path.join(nodeModules, 'fauxqs');
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
  }
  throw new Error('No se encontró el paquete fauxqs: ejecute "npm install" en la raíz del proyecto.');
}
