import { randomUUID } from 'node:crypto';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { routes, type FileLink, type Invoice, type UploadTicket } from '@portal/shared';
import { makeDocumentFiles } from '../../functions/src/adapters/s3.js';
import type { Caller } from '../../functions/src/http/caller.js';
import { uploadCalls } from '../../functions/src/use-cases/uploads/upload-calls.fake.js';
import { S3_CLIENT_COMPAT } from '../../local/stand-ins/s3.js';
import { LOCAL_CREDENTIALS } from '../../local/stand-ins/types.js';
import { SUPPLIERS, buildWorld } from '../support/tenant.js';
import { call, idTokenOf, type CallResult } from '../support/api.js';
import { stage } from '../support/stage.js';

/**
 * Uploads and downloads against the local stage: tickets from POST /uploads, the browser's multipart
 * POST straight to the bucket (s3rver), verifyUpload on what arrived, and links to seeded files.
 */
const world = buildWorld();
const OWN = SUPPLIERS[0]!.taxId;
const OTHER = SUPPLIERS[1]!.taxId;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

const userOf = (taxId: string) => stage().demoUsers.find((user) => user.role === 'SUPPLIER' && user.taxId === taxId)!;
const tokenOf = (taxId: string) => idTokenOf(userOf(taxId).username, userOf(taxId).password);
const adminToken = () => {
  const admin = stage().demoUsers.find((user) => user.role === 'ADMIN')!;
  return idTokenOf(admin.username, admin.password);
};

/** The caller the API would build for a supplier of this RUC (verifyUpload has no route of its own yet). */
const supplierCaller = (taxId: string): Caller => ({
  sub: `sub-${taxId}`,
  username: `sub-${taxId}`,
  email: userOf(taxId).username,
  firstName: 'Demo',
  lastName: 'Proveedor',
  level: 'SUPPLIER',
  taxIds: [taxId],
  groups: [],
  activeCompany: taxId,
  expiresAt: 0,
  signIn: 'PASSWORD',
  txId: 'test-tx',
});

function bucket() {
  const { region, endpoints, documentsBucket } = stage();
  const client = new S3Client({ region, endpoint: endpoints.s3, credentials: LOCAL_CREDENTIALS, ...S3_CLIENT_COMPAT });
  const files = makeDocumentFiles({
    name: documentsBucket,
    region,
    credentials: LOCAL_CREDENTIALS,
    endpoint: endpoints.s3,
    pathStyle: true,
  });
  return { client, name: documentsBucket, files };
}

/** verifyUpload wired to the stage's bucket, as the intake use cases will call it. */
function uploadsOnStage() {
  const { files } = bucket();
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
  return uploadCalls({
    files,
    invoices: { get: async () => null },
    uses: { inUse: async () => false },
    clock: () => new Date(),
    newId: randomUUID,
    log: quiet as never,
  });
}

/** The body is an UploadTicket on 201, an error body otherwise. */
async function ticketFor(taxId: string, body: Record<string, unknown>): Promise<CallResult> {
  return call(routes.createUpload, { token: await tokenOf(taxId), body });
}

/** What the web app does with a ticket: the fields first, then the file, as multipart/form-data. */
async function postToBucket(ticket: UploadTicket, bytes: Buffer, type: string, fileName: string): Promise<number> {
  const form = new FormData();
  for (const [name, value] of Object.entries(ticket.fields)) form.append(name, value);
  form.append('file', new Blob([bytes], { type }), fileName);
  const response = await fetch(ticket.url, { method: 'POST', body: form });
  await response.arrayBuffer();
  return response.status;
}

async function exists(key: string): Promise<boolean> {
  const { client, name } = bucket();
  try {
    await client.send(new HeadObjectCommand({ Bucket: name, Key: key }));
    return true;
  } catch (error) {
    if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
    throw error;
  }
}

function expectError(response: CallResult, status: number, code: string) {
  expect({ status: response.status, code: response.body?.errors?.[0]?.code }).toEqual({ status, code });
  expect(response.body.message).toEqual(expect.any(String));
}

describe('upload tickets', () => {
  it('lets a supplier upload a real PDF straight to the bucket, and verifyUpload accepts it', async () => {
    const ticket = await ticketFor(OWN, {
      purpose: 'INVOICE_PDF',
      fileName: 'Factura de marzo.pdf',
      contentType: 'application/pdf',
      size: PDF.length,
    });
    expect(ticket.status).toBe(201);
    expect(ticket.body.url.startsWith(stage().endpoints.s3)).toBe(true);

    const status = await postToBucket(ticket.body, PDF, 'application/pdf', 'Factura de marzo.pdf');
    const verified = await uploadsOnStage().verifyUpload(ticket.body.key, 'INVOICE_PDF', supplierCaller(OWN));

    expect(status).toBe(204);
    expect(verified).toEqual({
      key: ticket.body.key,
      size: PDF.length,
      contentType: 'application/pdf',
      fileName: 'Factura de marzo.pdf',
    });
  });

  it('makes the key on the server: tenant, year and month, never the user file name', async () => {
    const ticket = await ticketFor(OWN, {
      purpose: 'ATTACHMENT',
      fileName: '../../etc/passwd.png',
      contentType: 'image/png',
      size: 500,
    });

    expect(ticket.status).toBe(201);
    expect(ticket.body.key).toMatch(new RegExp(`^uploads/${OWN}/\\d{4}/\\d{2}/[0-9a-f-]{36}\\.png$`));
    expect(ticket.body.key).not.toContain('passwd');
    expect(ticket.body.fields).toMatchObject({ key: ticket.body.key, 'Content-Type': 'image/png' });
    expect(Date.parse(ticket.body.expiresAt) - Date.now()).toBeLessThanOrEqual(5 * 60 * 1000);
  });

  it('refuses a declared size above the limit and a type the purpose does not take', async () => {
    const tooLarge = await ticketFor(OWN, {
      purpose: 'INVOICE_XML',
      fileName: 'factura.xml',
      contentType: 'application/xml',
      size: 2 * 1024 * 1024 + 1,
    });
    const wrongType = await ticketFor(OWN, {
      purpose: 'ATTACHMENT',
      fileName: 'pagina.html',
      contentType: 'text/html',
      size: 100,
    });

    expectError(tooLarge, 400, 'ERROR_UPLOAD_TOO_LARGE');
    expect(tooLarge.body.errors[0].parameters.maxBytes).toBe(2 * 1024 * 1024);
    expectError(wrongType, 400, 'ERROR_UPLOAD_TYPE_NOT_ALLOWED');
  });

  it('refuses a PNG sent with a PDF ticket, and deletes it', async () => {
    const ticket = await ticketFor(OWN, {
      purpose: 'INVOICE_PDF',
      fileName: 'factura.pdf',
      contentType: 'application/pdf',
      size: PNG.length,
    });
    expect(await postToBucket(ticket.body, PNG, 'image/png', 'factura.pdf')).toBe(204);
    expect(await exists(ticket.body.key)).toBe(true);

    const verifying = uploadsOnStage().verifyUpload(ticket.body.key, 'INVOICE_PDF', supplierCaller(OWN));

    await expect(verifying).rejects.toMatchObject({
      errors: [{ code: 'ERROR_UPLOAD_CONTENT_MISMATCH', parameters: { expected: 'PDF' } }],
    });
    expect(await exists(ticket.body.key)).toBe(false);
  });

  it('does not let another supplier use a key of this one, and leaves the file alone', async () => {
    const ticket = await ticketFor(OWN, {
      purpose: 'INVOICE_PDF',
      fileName: 'factura.pdf',
      contentType: 'application/pdf',
      size: PDF.length,
    });
    await postToBucket(ticket.body, PDF, 'application/pdf', 'factura.pdf');

    const verifying = uploadsOnStage().verifyUpload(ticket.body.key, 'INVOICE_PDF', supplierCaller(OTHER));

    await expect(verifying).rejects.toMatchObject({ code: 'ERROR_UPLOAD_NOT_FOUND' });
    expect(await exists(ticket.body.key)).toBe(true);
  });
});

describe('invoice file links', () => {
  const ownInvoice = world.invoices.find((invoice) => invoice.supplierId === OWN && invoice.xmlUrl)!;
  const withoutXml = world.invoices.find((invoice) => invoice.xmlUrl === null)!;
  const pathOf = (invoice: Invoice) => ({
    supplierId: invoice.supplierId,
    invoiceType: invoice.type,
    invoiceId: invoice.id,
  });

  it("gives the supplier a working link to its own seeded invoice's PDF, shown inline", async () => {
    const link = await call<FileLink>(routes.getInvoiceFile, {
      token: await tokenOf(OWN),
      path: pathOf(ownInvoice),
      query: { file: 'pdf' },
    });
    expect(link.status).toBe(200);

    const file = await fetch(link.body.url);
    const bytes = Buffer.from(await file.arrayBuffer());

    expect(file.status).toBe(200);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toMatch(/^inline; filename="/);
    expect(link.body.fileName).toBe(`${OWN}-${ownInvoice.id}.pdf`);
    expect(Date.parse(link.body.expiresAt) - Date.now()).toBeLessThanOrEqual(5 * 60 * 1000);
  });

  it('downloads the XML as an attachment carrying the file name', async () => {
    const link = await call<FileLink>(routes.getInvoiceFile, {
      token: await tokenOf(OWN),
      path: pathOf(ownInvoice),
      query: { file: 'xml' },
    });

    const file = await fetch(link.body.url);
    const text = await file.text();

    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="${link.body.fileName}"; filename*=UTF-8''${link.body.fileName}`,
    );
    expect(link.body.fileName).toBe(`${OWN}-${ownInvoice.id}.xml`);
    expect(text).toContain(`<cbc:ID>${ownInvoice.id}</cbc:ID>`);
  });

  it("answers 404 to another supplier asking for this supplier's file", async () => {
    const response = await call(routes.getInvoiceFile, {
      token: await tokenOf(OTHER),
      path: pathOf(ownInvoice),
      query: { file: 'pdf' },
    });

    expectError(response, 404, 'ERROR_INVOICE_NOT_FOUND');
  });

  it('answers 404 for a file the invoice does not have', async () => {
    const response = await call(routes.getInvoiceFile, {
      token: await adminToken(),
      path: pathOf(withoutXml),
      query: { file: 'xml' },
    });

    expectError(response, 404, 'ERROR_FILE_NOT_FOUND');
  });
});
