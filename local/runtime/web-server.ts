import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { contentSecurityPolicy, type CspSources, type WebConfig } from '@portal/shared';
import { listen, type RunningService } from '../stand-ins/types.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.map': 'application/json',
};

const gzipAsync = promisify(gzip);

/**
 * What CloudFront compresses on the fly for a viewer that accepts it (the site's behaviour has `compress`, the CDK's
 * default, and the CachingOptimized policy): text types of 1,000 bytes to 10 MB. Over plain http Chromium accepts
 * gzip and deflate only (brotli and zstd need https), so the local stage answers gzip.
 */
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.svg', '.map']);
const MIN_COMPRESSED_BYTES = 1000;
const MAX_COMPRESSED_BYTES = 10_000_000;

function acceptsGzip(header: string | undefined): boolean {
  return (header ?? '').split(',').some((part) => {
    const [coding, ...params] = part.trim().split(';');
    const refused = params.some((param) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(param));
    return (coding === 'gzip' || coding === '*') && !refused;
  });
}

/**
 * What the app served with `config` reaches on the local stage: the API, the Cognito stand-in (which
 * also serves the hosted UI's /oauth2/token) and s3rver (presigned POST uploads). Also used by e2e tests
 * that serve the app a changed config.json, so that the policy changes with it as a stage's would.
 */
export function localCspSources(config: WebConfig, storageEndpoint: string): CspSources {
  const origins = [config.apiUrl, config.cognitoEndpoint, config.oauth?.baseUrl, storageEndpoint].flatMap((url) =>
    url ? [new URL(url).origin] : [],
  );
  return { connect: [...new Set(origins)], waf: config.waf !== null, chat: config.chat !== null };
}

/**
 * The headers CloudFront's response headers policy adds to every answer of the site in AWS
 * (infra/lib/constructs/web.ts), the same CSP included; no HSTS, the local stage is plain http.
 */
export function localSecurityHeaders(sources: CspSources): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(sources),
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=()',
  };
}

/**
 * Serves the built web app with an SPA fallback (as CloudFront does in AWS), the stage's /config.json
 * and the site's security headers, CSP included.
 */
export async function startWebServer(options: {
  port: number;
  host: string;
  distDir: string;
  config: WebConfig;
  /** s3rver's endpoint: the origin of the presigned upload URLs the API hands out. */
  storageEndpoint: string;
}): Promise<RunningService> {
  const configBody = JSON.stringify(options.config);
  const security = localSecurityHeaders(localCspSources(options.config, options.storageEndpoint));
  const root = path.resolve(options.distDir);
  // Compressed once per file version (the build is replaced whole, and a new build has new names).
  const compressed = new Map<string, { mtimeMs: number; body: Promise<Buffer> }>();
  const gzipped = (file: string, body: Buffer): Promise<Buffer> => {
    const mtimeMs = statSync(file).mtimeMs;
    const known = compressed.get(file);
    if (known && known.mtimeMs === mtimeMs) return known.body;
    const next = { mtimeMs, body: gzipAsync(body) };
    compressed.set(file, next);
    return next.body;
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/config.json') {
      res.writeHead(200, { ...security, 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(configBody);
      return;
    }
    let pathname: string;
    try {
      pathname = decodeURIComponent(url.pathname);
    } catch {
      res.writeHead(400, { ...security, 'content-type': 'text/plain; charset=utf-8' });
      res.end('Dirección no válida');
      return;
    }
    let file = path.resolve(root, `.${pathname}`);
    if (!file.startsWith(root) || !existsSync(file) || statSync(file).isDirectory())
      file = path.join(root, 'index.html');
    const ext = path.extname(file);
    const immutable = url.pathname.startsWith('/assets/');
    const send = async () => {
      const body = await readFile(file);
      const headers: Record<string, string> = {
        ...security,
        'content-type': TYPES[ext] ?? 'application/octet-stream',
        'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        vary: 'accept-encoding',
      };
      const compress =
        COMPRESSIBLE.has(ext) &&
        body.length >= MIN_COMPRESSED_BYTES &&
        body.length <= MAX_COMPRESSED_BYTES &&
        acceptsGzip(req.headers['accept-encoding']);
      if (!compress) {
        res.writeHead(200, headers);
        res.end(body);
        return;
      }
      const encoded = await gzipped(file, body);
      res.writeHead(200, { ...headers, 'content-encoding': 'gzip', 'content-length': String(encoded.length) });
      res.end(encoded);
    };
    send().catch(() => {
      // The build is being replaced (another stage on this machine rebuilt it): try again shortly.
      compressed.delete(file);
      res.writeHead(503, { ...security, 'content-type': 'text/plain; charset=utf-8', 'retry-after': '2' });
      res.end('La aplicación web se está actualizando; recargue en unos segundos.');
    });
  });
  return listen('web', server, options.port, options.host);
}
