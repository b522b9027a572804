import http from 'node:http';
import { listen, type RunningService } from '../stand-ins/types.js';

export type SimRoute = {
  method: string;
  pattern: RegExp;
  handle: (req: { params: string[]; headers: http.IncomingHttpHeaders; body: string; url: URL }) => {
    status: number;
    body?: unknown;
    headers?: Record<string, string>;
  };
};

/** A tiny JSON HTTP server on loopback, shared by the SUNAT and SAP simulators. */
export async function startSimulator(
  name: string,
  port: number,
  host: string,
  routes: SimRoute[],
): Promise<RunningService> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      for (const route of routes) {
        const match = route.method === req.method ? route.pattern.exec(url.pathname) : null;
        if (!match) continue;
        const out = route.handle({
          params: match.slice(1),
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          url,
        });
        res.writeHead(out.status, { 'content-type': 'application/json', ...out.headers });
        res.end(out.body === undefined ? '' : JSON.stringify(out.body));
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'not found' }));
    });
  });
  return listen(name, server, port, host);
}
