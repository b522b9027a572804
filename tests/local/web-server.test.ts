import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebConfig } from '@portal/shared';
import type { RunningService } from '../../local/stand-ins/types.js';
import { startWebServer } from '../../local/runtime/web-server.js';
import { freePort, makeTempDir, removeDir } from './helpers.js';

/**
 * The local stage's web server compresses as CloudFront does in AWS (the phone benchmark, bench/suites/web-phone.ts,
 * measures the bytes a browser receives): gzip for a browser that accepts it, text of 1,000 bytes or more only.
 */
let dir: string;
let web: RunningService;

const SCRIPT = `export const rows = [${Array.from({ length: 400 }, (_, index) => `'F001-${index}'`).join(', ')}];\n`;

/** A raw GET (fetch would decompress the body and drop what the wire carried). */
function get(pathname: string, acceptEncoding?: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const url = new URL(pathname, web.endpoint);
    const request = http.get(url, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    request.on('error', reject);
  });
}

beforeAll(async () => {
  dir = makeTempDir('portal-web-server');
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html><html><head><title>Portal</title></head>${' '.repeat(1200)}</html>`,
  );
  writeFileSync(path.join(dir, 'assets', 'rows-abc123.js'), SCRIPT);
  writeFileSync(path.join(dir, 'assets', 'tiny-abc123.js'), 'export {};\n');
  writeFileSync(path.join(dir, 'assets', 'face-abc123.woff2'), Buffer.alloc(4000, 7));
  const config = WebConfig.parse({
    stage: 'test',
    apiUrl: 'http://127.0.0.1:1/api',
    region: 'us-east-1',
    userPoolId: 'pool',
    userPoolClientId: 'client',
    cognitoEndpoint: null,
    oauth: null,
    chat: null,
  });
  const port = await freePort();
  web = await startWebServer({ port, host: '127.0.0.1', distDir: dir, config, storageEndpoint: 'http://127.0.0.1:2' });
});

afterAll(async () => {
  await web.stop();
  removeDir(dir);
});

describe('local web server compression', () => {
  it('sends a script gzip to a browser that accepts it, the same bytes once inflated', async () => {
    const answer = await get('/assets/rows-abc123.js', 'gzip, deflate');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(answer.headers.vary).toBe('accept-encoding');
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    expect(answer.body.length).toBeLessThan(Buffer.byteLength(SCRIPT) / 2);
    expect(gunzipSync(answer.body).toString('utf8')).toBe(SCRIPT);
    expect(answer.headers['cache-control']).toContain('immutable');
  });

  it('sends it as it is to a client that does not accept gzip, or refuses it with q=0', async () => {
    for (const accept of [undefined, 'identity', 'br', 'gzip;q=0, identity']) {
      const answer = await get('/assets/rows-abc123.js', accept);
      expect(answer.headers['content-encoding'], accept).toBeUndefined();
      expect(answer.body.toString('utf8')).toBe(SCRIPT);
    }
  });

  it('does not compress what CloudFront leaves alone: small files and fonts', async () => {
    const tiny = await get('/assets/tiny-abc123.js', 'gzip');
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body.toString('utf8')).toBe('export {};\n');
    const font = await get('/assets/face-abc123.woff2', 'gzip');
    expect(font.headers['content-encoding']).toBeUndefined();
    expect(font.body.length).toBe(4000);
  });

  it("compresses the app's routes (index.html) and keeps the site's headers", async () => {
    const answer = await get('/invoices/20456178325/FACTURA/F001-1', 'gzip');
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(answer.headers['content-security-policy']).toBeTruthy();
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(gunzipSync(answer.body).toString('utf8')).toContain('<title>Portal</title>');
  });
});
