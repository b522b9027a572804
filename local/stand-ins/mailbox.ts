import { randomUUID } from 'node:crypto';
import { mkdir, readFile, readdir } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { listen, writeFileAtomic, type RunningService } from './types.js';

/** One e-mail as the local mailbox keeps it (also a .eml file a mail client opens). */
export interface LocalEmail {
  readonly id: string;
  readonly receivedAt: string;
  readonly from: string;
  readonly to: string[];
  readonly subject: string;
  readonly text: string;
  readonly html: string | null;
}

interface SendEmailRequest {
  FromEmailAddress?: string;
  Destination?: { ToAddresses?: string[] };
  Content?: { Simple?: { Subject?: { Data?: string }; Body?: { Text?: { Data?: string }; Html?: { Data?: string } } } };
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function toEml(mail: LocalEmail): string {
  const boundary = `portal-${mail.id}`;
  return [
    `From: ${mail.from}`,
    `To: ${mail.to.join(', ')}`,
    `Subject: =?UTF-8?B?${Buffer.from(mail.subject).toString('base64')}?=`,
    `Date: ${new Date(mail.receivedAt).toUTCString()}`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=UTF-8',
    '',
    mail.text,
    ...(mail.html ? [`--${boundary}`, 'Content-Type: text/html; charset=UTF-8', '', mail.html] : []),
    `--${boundary}--`,
    '',
  ].join('\r\n');
}

/**
 * The local stage's stand-in for SES v2: SendEmail (simple content) writes each message to
 * <dataDir>/mailbox as JSON and .eml; http://127.0.0.1:<port>/ lists them for a developer, and
 * /messages answers them as JSON for tests.
 */
export async function startMailbox(options: { port: number; host: string; dataDir: string }): Promise<RunningService> {
  const dir = path.join(options.dataDir, 'mailbox');
  await mkdir(dir, { recursive: true });

  async function all(): Promise<LocalEmail[]> {
    const files = (await readdir(dir))
      .filter((file) => file.endsWith('.json'))
      .sort()
      .reverse();
    return Promise.all(
      files.map(async (file) => JSON.parse(await readFile(path.join(dir, file), 'utf8')) as LocalEmail),
    );
  }

  async function serve(req: http.IncomingMessage, res: http.ServerResponse, body: string): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'POST' && url.pathname === '/v2/email/outbound-emails') {
      const request = JSON.parse(body || '{}') as SendEmailRequest;
      const simple = request.Content?.Simple;
      const to = request.Destination?.ToAddresses ?? [];
      if (!simple || to.length === 0) {
        res.writeHead(400, { 'content-type': 'application/json', 'x-amzn-errortype': 'BadRequestException' });
        res.end(JSON.stringify({ message: 'Only simple content with at least one recipient is supported locally.' }));
        return;
      }
      const receivedAt = new Date().toISOString();
      const mail: LocalEmail = {
        id: randomUUID(),
        receivedAt,
        from: request.FromEmailAddress ?? '',
        to,
        subject: simple.Subject?.Data ?? '',
        text: simple.Body?.Text?.Data ?? '',
        html: simple.Body?.Html?.Data ?? null,
      };
      const base = `${receivedAt.replace(/[:.]/g, '-')}-${mail.id}`;
      // The .eml first and each file whole: the listing reads every .json, never a half-written one.
      await writeFileAtomic(path.join(dir, `${base}.eml`), toEml(mail));
      await writeFileAtomic(path.join(dir, `${base}.json`), JSON.stringify(mail, null, 2));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ MessageId: mail.id }));
      return;
    }
    if (req.method === 'GET' && url.pathname === '/messages') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(await all()));
      return;
    }
    if (req.method === 'GET' && url.pathname === '/') {
      const rows = (await all())
        .map(
          (mail) =>
            `<article><h2>${escapeHtml(mail.subject)}</h2><p><b>Para:</b> ${escapeHtml(mail.to.join(', '))} · ` +
            `<b>Recibido:</b> ${escapeHtml(mail.receivedAt)}</p><pre>${escapeHtml(mail.text)}</pre></article>`,
        )
        .join('<hr>');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="es-PE"><meta charset="utf-8"><title>Buzón local</title>` +
          `<body style="font-family:sans-serif;max-width:60rem;margin:auto"><h1>Buzón local del Portal de Proveedores</h1>` +
          `${rows || '<p>No hay correos.</p>'}</body></html>`,
      );
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: 'not found' }));
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      serve(req, res, Buffer.concat(chunks).toString('utf8')).catch((error: Error) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: error.message }));
      });
    });
  });
  return listen('mailbox', server, options.port, options.host);
}
