import yazl from 'yazl';
import { routes, type UploadTicket } from '@portal/shared';
import { call } from './api.js';

/** What the web app does: ask for a ticket, then send the fields and the file to the bucket. Returns the key. */
export async function uploadAs(
  token: string,
  purpose: 'INVOICE_XML' | 'INVOICE_PDF' | 'INVOICE_CDR' | 'ATTACHMENT' | 'MESSAGE_ATTACHMENT' | 'INVOICE_ZIP',
  bytes: Buffer,
  contentType: string,
  fileName: string,
  apiUrl?: string,
): Promise<string> {
  const ticket = await call<UploadTicket>(routes.createUpload, {
    token,
    apiUrl,
    body: { purpose, fileName, contentType, size: bytes.length },
  });
  if (ticket.status !== 201) throw new Error(`No ticket: ${JSON.stringify(ticket.body)}`);
  const form = new FormData();
  for (const [name, value] of Object.entries(ticket.body.fields)) form.append(name, value);
  form.append('file', new Blob([bytes], { type: contentType }), fileName);
  const response = await fetch(ticket.body.url, { method: 'POST', body: form });
  await response.arrayBuffer();
  if (response.status >= 300) throw new Error(`Upload refused by the bucket: ${response.status}`);
  return ticket.body.key;
}

export const MINIMAL_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
);

/** A zip of these entries (name, bytes), as a supplier's zip tool writes one. */
export async function zipOf(entries: readonly (readonly [name: string, bytes: Buffer])[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, bytes] of entries) zip.addBuffer(bytes, name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}
