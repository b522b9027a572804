import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import semver from 'semver';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The tools run on the Node that package.json's engines.node asks for (Node 22 LTS): scripts/ensure-node.sh keeps
 * the machine's when it is new enough and installs its pinned Node 22 otherwise; `npm test`, `npm start` and
 * .ci/run put that Node first on PATH.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const ENSURE_NODE = path.join(ROOT, 'scripts/ensure-node.sh');
const ENGINES = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } })
  .engines.node;
const PINNED = /^NODE_VERSION=(\S+)$/m.exec(readFileSync(ENSURE_NODE, 'utf8'))?.[1] ?? '';
/** The oldest Node of each range of engines.node (22.13.0 and 24.0.0 of "^22.13.0 || >=24"). */
const LOWEST = ENGINES.split('||').map((range) => semver.minVersion(range)!.version);

const accepts = (version: string) => spawnSync('bash', [ENSURE_NODE, '--accepts', version]).status === 0;

describe('the Node the tools run on', () => {
  it('runs the tests on Node 22 or newer, as engines.node asks', () => {
    expect(semver.major(process.versions.node)).toBeGreaterThanOrEqual(22);
    expect(semver.satisfies(process.versions.node, ENGINES), `${process.versions.node} for ${ENGINES}`).toBe(true);
  });

  it('installs a Node 22 LTS that engines.node accepts', () => {
    expect(semver.valid(PINNED), `NODE_VERSION=${PINNED}`).not.toBeNull();
    expect(semver.major(PINNED)).toBe(22);
    expect(semver.satisfies(PINNED, ENGINES)).toBe(true);
  });

  it("keeps the machine's Node exactly when engines.node accepts it", () => {
    for (const version of ['20.19.0', '20.20.2', '21.7.3', '22.12.0', ...LOWEST, PINNED, '23.11.1', '25.2.1']) {
      expect(accepts(version), version).toBe(semver.satisfies(version, ENGINES));
    }
  });

  it('accepts no Node that a locked dependency refuses (npm ci would warn EBADENGINE)', () => {
    const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { engines?: { node?: string } }>;
    };
    for (const version of [...LOWEST, PINNED]) {
      const refusing = Object.entries(lock.packages)
        .filter(([, entry]) => typeof entry.engines?.node === 'string')
        .filter(([, entry]) => !semver.satisfies(version, entry.engines!.node!))
        .map(([name, entry]) => `${name} (${entry.engines!.node})`);
      expect(refusing, `Node ${version}`).toEqual([]);
    }
  });
});

describe('npm start on a machine whose Node is older', () => {
  const fakeBin = mkdtempSync(path.join(os.tmpdir(), 'old-node-'));
  afterAll(() => rmSync(fakeBin, { recursive: true, force: true }));

  it("runs on the pinned Node 22 (the wrapper of package.json's start)", () => {
    // A Node 20 first on PATH, as on a machine that has only that one.
    writeFileSync(path.join(fakeBin, 'node'), '#!/bin/sh\necho v20.20.2\n');
    chmodSync(path.join(fakeBin, 'node'), 0o755);
    const version = execFileSync(
      'bash',
      [path.join(ROOT, 'scripts/with-node.sh'), 'node', '-p', 'process.versions.node'],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, PATH: `${fakeBin}:${process.env.PATH}` } },
    );
    expect(version.trim()).toBe(PINNED);
  });
});
