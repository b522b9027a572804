import { routes, type UploadTicket } from '@portal/shared';
import { call } from './api.js';

/** What the web app does: ask for a ticket, then send the fields and the file to the bucket. Returns the key. */
export async function uploadAs(
  token: string,
  purpose: 'INVOICE_XML' | 'INVOICE_PDF' | 'INVOICE_CDR' | 'ATTACHMENT' | 'MESSAGE_ATTACHMENT' | 'INVOICE_ZIP',
  bytes: Buffer,
  contentType: string,
  fileName: string,
): Promise<string> {
  const ticket = await call<UploadTicket>(routes.createUpload, {
    token,
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
