import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import type { WebConfig } from '@portal/shared';
import { listen, type RunningService } from './services/types.js';

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

/** Serves the built web app with an SPA fallback (as CloudFront does in AWS) and the stage's /config.json. */
export async function startWebServer(options: {
  port: number;
  host: string;
  distDir: string;
  config: WebConfig;
}): Promise<RunningService> {
  const configBody = JSON.stringify(options.config);
  const root = path.resolve(options.distDir);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/config.json') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(configBody);
      return;
    }
    let pathname: string;
    try {
      pathname = decodeURIComponent(url.pathname);
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Dirección no válida');
      return;
    }
    let file = path.resolve(root, `.${pathname}`);
    if (!file.startsWith(root) || !existsSync(file) || statSync(file).isDirectory())
      file = path.join(root, 'index.html');
    const ext = path.extname(file);
    const immutable = url.pathname.startsWith('/assets/');
    readFile(file).then(
      (body) => {
        res.writeHead(200, {
          'content-type': TYPES[ext] ?? 'application/octet-stream',
          'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
          'x-content-type-options': 'nosniff',
        });
        res.end(body);
      },
      () => {
        // The build is being replaced (another stage on this machine rebuilt it): try again shortly.
        res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '2' });
        res.end('La aplicación web se está actualizando; recargue en unos segundos.');
      },
    );
  });
  return listen('web', server, options.port, options.host);
}
