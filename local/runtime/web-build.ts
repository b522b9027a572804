import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT_DIR } from './config.js';

function newestMtime(target: string): number {
  const info = statSync(target);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist' || entry.startsWith('.dist-')) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/**
 * Builds the web app when web/dist is missing or older than its sources (web/ and shared/). Stages
 * started at once on this machine (parallel test runs) take turns: a lock directory under .local
 * names the building process, and the others wait for it and then find the build fresh.
 */
export async function ensureWebBuild(log: (line: string) => void): Promise<string> {
  const dist = path.join(ROOT_DIR, 'web/dist');
  const lock = path.join(ROOT_DIR, '.local/web-build.lock');
  await mkdir(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch {
      const owner = Number(existsSync(path.join(lock, 'pid')) ? readFileSync(path.join(lock, 'pid'), 'utf8') : 0);
      const stale = owner ? !processAlive(owner) : Date.now() - statSync(lock).mtimeMs > 60_000;
      if (stale || Date.now() > deadline) await rm(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    await writeFile(path.join(lock, 'pid'), String(process.pid));
    const builtAt = existsSync(path.join(dist, 'index.html')) ? statSync(path.join(dist, 'index.html')).mtimeMs : 0;
    const sourcesAt = Math.max(newestMtime(path.join(ROOT_DIR, 'web')), newestMtime(path.join(ROOT_DIR, 'shared/src')));
    if (builtAt >= sourcesAt) return dist;
    log('Compilando la aplicación web (vite build)…');
    // Built beside web/dist and swapped in, so that a stage serving web/dist never sees it half-written.
    const next = path.join(ROOT_DIR, 'web/.dist-next');
    const previous = path.join(ROOT_DIR, 'web/.dist-previous');
    const result = spawnSync('npm', ['run', 'build', '-w', 'web', '--', '--outDir', next, '--emptyOutDir'], {
      cwd: ROOT_DIR,
      // Vite keeps a NODE_ENV it finds (vitest sets `test`), and React and Cloudscape then build in development
      // mode: the stage serves, and the size budgets measure, the production build only.
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
    });
    if (result.status !== 0)
      throw new Error(`La compilación de la aplicación web falló:\n${result.stdout}\n${result.stderr}`);
    await rm(previous, { recursive: true, force: true });
    if (existsSync(dist)) await rename(dist, previous);
    await rename(next, dist);
    await rm(previous, { recursive: true, force: true });
    return dist;
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
