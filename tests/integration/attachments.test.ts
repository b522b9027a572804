import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { routes, withCheckDigit, type FileLink, type InvoiceDetail, type UploadTicket } from '@portal/shared';
import { CLIENTS, EMPLOYEES, OFFICE_LOCATIONS, SUPPLIERS, buildWorld, tenantFixture } from '../support/tenant.js';
import { S3_CLIENT_COMPAT } from '../../local/stand-ins/s3.js';
import { LOCAL_CREDENTIALS } from '../../local/stand-ins/types.js';
import { call, idTokenOf, type CallResult } from '../support/api.js';
import { reviewFixture, type ReviewFixture } from '../support/fixtures.js';
import { freshCorrelative } from '../support/invoices.js';
import { demoUser, stage } from '../support/stage.js';
import { MINIMAL_PDF } from '../support/uploads.js';

/**
 * Files belong to their tenant: an invoice's attachments are uploads made for its company that
 * exist and passed the byte checks; every refused upload leaves the bucket; and a file is served so that a
 * browser shows it as a PDF or downloads it, never as a page.
 */
const COMPANY = CLIENTS[0]!;
const MANAGERS_OTHER_COMPANY = CLIENTS[1]!;
const SUPPLIER = SUPPLIERS[0]!;
const OTHER_SUPPLIER = SUPPLIERS[1]!;
const EMPLOYEE = EMPLOYEES[COMPANY.taxId]![0]!;
const OFFICE = OFFICE_LOCATIONS[COMPANY.taxId]![1]!;

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
/** A PDF whose bytes are also a web page: a browser that took it for HTML would run its script. */
const POLYGLOT = Buffer.from(
  '%PDF-1.4\n<html><body><script>document.title="xss"</script></body></html>\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
);
const corpus = (name: string) => Buffer.from(tenantFixture(`ubl/${name}`));

const tokenOf = (user: { username: string; password: string }) => idTokenOf(user.username, user.password);
const manager = () => tokenOf(demoUser('MANAGER'));
const supplierUser = (taxId: string) =>
  stage().demoUsers.find((user) => user.role === 'SUPPLIER' && user.taxId === taxId)!;

/** What the web app does: a ticket (for the company in `company`, if given), then the file to the bucket. */
async function upload(
  token: string,
  purpose: 'INVOICE_XML' | 'INVOICE_PDF' | 'ATTACHMENT',
  bytes: Buffer,
  contentType: string,
  company?: string,
): Promise<string> {
  const ticket = await call<UploadTicket>(routes.createUpload, {
    token,
    body: { purpose, fileName: 'archivo', contentType, size: bytes.length },
    headers: company ? { 'x-company-id': company } : {},
  });
  expect(ticket.status).toBe(201);
  const form = new FormData();
  for (const [name, value] of Object.entries(ticket.body.fields)) form.append(name, value);
  form.append('file', new Blob([bytes], { type: contentType }), 'archivo');
  const response = await fetch(ticket.body.url, { method: 'POST', body: form });
  await response.arrayBuffer();
  expect(response.status).toBeLessThan(300);
  return ticket.body.key;
}

/** Whether the bucket holds the key, asked through the S3 API. */
async function inBucket(key: string): Promise<boolean> {
  const { region, endpoints, documentsBucket } = stage();
  const client = new S3Client({ region, endpoint: endpoints.s3, credentials: LOCAL_CREDENTIALS, ...S3_CLIENT_COMPAT });
  try {
    await client.send(new HeadObjectCommand({ Bucket: documentsBucket, Key: key }));
    return true;
  } catch (error) {
    if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
    throw error;
  }
}

const pathOf = ({ invoice }: Pick<ReviewFixture, 'invoice'>) => ({
  supplierId: invoice.supplierId,
  invoiceType: invoice.type,
  invoiceId: invoice.id,
});

/** An invoice of the demo supplier at the manager's first company, to complete without purchase order. */
const fixture = () =>
  reviewFixture({ client: COMPANY.taxId, clientName: COMPANY.name, supplier: SUPPLIER, kind: null });

/** The manager (or `token`'s user) completes the invoice without purchase order, with these attachments. */
async function completeWith(f: ReviewFixture, attachments: string[], token?: string): Promise<CallResult> {
  return call(routes.updateInvoice, {
    token: token ?? (await manager()),
    path: pathOf(f),
    body: {
      operationType: 'WITHOUT_PURCHASE_ORDER',
      responsibleId: EMPLOYEE.id,
      officeId: OFFICE.office,
      locationId: OFFICE.id,
      purchaseOrders: [],
      serviceSheets: [],
      materialDocs: [],
      attachments,
    },
  });
}

async function detail(f: ReviewFixture): Promise<InvoiceDetail> {
  return (await call<InvoiceDetail>(routes.getInvoice, { token: await manager(), path: pathOf(f) })).body;
}

/** The link the supplier gets for an attachment, and what a browser then receives from it. */
async function openAttachment(f: ReviewFixture, index: number) {
  const link = await call<FileLink>(routes.getInvoiceFile, {
    token: await tokenOf(supplierUser(f.invoice.supplierId)),
    path: pathOf(f),
    query: { file: 'attachment', index },
  });
  expect(link.status).toBe(200);
  const response = await fetch(link.body.url);
  return { link: link.body, response, bytes: Buffer.from(await response.arrayBuffer()) };
}

function expectRefusal(response: CallResult, code: string, position: number) {
  expect({ status: response.status, errors: response.body?.errors }).toEqual({
    status: 400,
    errors: [{ code, parameters: expect.objectContaining({ position }) }],
  });
  expect(response.body.message).toEqual(expect.any(String));
}

describe('the attachments of an invoice', () => {
  it("refuses another supplier's PDF and XML as if they did not exist, and changes nothing", async () => {
    const other = await tokenOf(supplierUser(OTHER_SUPPLIER.taxId));
    const theirPdf = await upload(other, 'INVOICE_PDF', MINIMAL_PDF, 'application/pdf');
    const theirXml = await upload(other, 'INVOICE_XML', corpus('boleta-ubl21.xml'), 'application/xml');
    const ownPdf = await upload(await manager(), 'ATTACHMENT', MINIMAL_PDF, 'application/pdf');
    const f = await fixture();
    const before = await detail(f);

    const withTheirPdf = await completeWith(f, [ownPdf, theirPdf]);
    const withTheirXml = await completeWith(f, [ownPdf, theirXml]);
    const missing = await completeWith(f, [ownPdf, theirPdf.replace(/[0-9a-f]{12}\.pdf$/, '000000000000.pdf')]);

    expectRefusal(withTheirPdf, 'ERROR_ATTACHMENT_NOT_FOUND', 2);
    expectRefusal(withTheirXml, 'ERROR_ATTACHMENT_NOT_FOUND', 2);
    // Another tenant's upload and a key that was never uploaded get the same answer, word for word.
    expect(withTheirPdf.body.message).toBe(missing.body.message);
    expect(withTheirPdf.body.errors[0].parameters.position).toBe(missing.body.errors[0].parameters.position);
    const after = await detail(f);
    expect(after).toEqual(before);
    expect(after).toMatchObject({ status: 'PENDING', attachments: [] });
    // The other supplier's files are not touched, and the supplier of the invoice cannot reach them.
    expect([await inBucket(theirPdf), await inBucket(theirXml), await inBucket(ownPdf)]).toEqual([true, true, true]);
    const link = await call(routes.getInvoiceFile, {
      token: await tokenOf(supplierUser(SUPPLIER.taxId)),
      path: pathOf(f),
      query: { file: 'attachment', index: 0 },
    });
    expect(link.status).toBe(404);
  });

  it('refuses an upload the manager made for another of its companies, and a key it made up', async () => {
    const token = await manager();
    const forOtherCompany = await upload(
      token,
      'ATTACHMENT',
      MINIMAL_PDF,
      'application/pdf',
      MANAGERS_OTHER_COMPANY.taxId,
    );
    expect(forOtherCompany.startsWith(`uploads/${MANAGERS_OTHER_COMPANY.taxId}/`)).toBe(true);
    const f = await fixture();

    expectRefusal(await completeWith(f, [forOtherCompany]), 'ERROR_ATTACHMENT_NOT_FOUND', 1);
    expectRefusal(await completeWith(f, ['adjuntos/sustento.pdf']), 'ERROR_ATTACHMENT_NOT_FOUND', 1);
    expectRefusal(
      await completeWith(f, [`uploads/${COMPANY.taxId}/2026/11/0b6a4f3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b.pdf`]),
      'ERROR_ATTACHMENT_NOT_FOUND',
      1,
    );
    expect(await detail(f)).toMatchObject({ status: 'PENDING', attachments: [] });
    expect(await inBucket(forOtherCompany)).toBe(true);
  });

  it('refuses an upload that fails the byte checks, deletes it, and leaves the invoice as it was', async () => {
    const token = await manager();
    const good = await upload(token, 'ATTACHMENT', MINIMAL_PDF, 'application/pdf');
    const notAPdf = await upload(token, 'ATTACHMENT', PNG, 'application/pdf');
    const f = await fixture();

    const refused = await completeWith(f, [good, notAPdf]);

    expectRefusal(refused, 'ERROR_ATTACHMENT_INVALID', 2);
    expect(refused.body.errors[0].parameters).toMatchObject({ allowed: 'PDF, PNG, JPG', maxSize: '10 MB' });
    expect(await detail(f)).toMatchObject({ status: 'PENDING', attachments: [] });
    expect(await inBucket(notAPdf)).toBe(false);
    expect(await inBucket(good)).toBe(true);
    // Named again, it is gone: not found.
    expectRefusal(await completeWith(f, [good, notAPdf]), 'ERROR_ATTACHMENT_NOT_FOUND', 2);
  });

  it("takes the manager's own uploads for the invoice's company, and the supplier downloads them", async () => {
    const token = await manager();
    const pdf = await upload(token, 'ATTACHMENT', MINIMAL_PDF, 'application/pdf', COMPANY.taxId);
    const png = await upload(token, 'ATTACHMENT', PNG, 'image/png', COMPANY.taxId);
    const f = await fixture();

    const done = await completeWith(f, [pdf, png]);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'COMPLETED', attachments: [pdf, png] });
    // Kept as they are on a second edit, without being checked again.
    expect((await completeWith(f, [pdf, png])).status).toBe(200);

    const first = await openAttachment(f, 0);
    expect(first.response.status).toBe(200);
    expect(first.bytes.equals(MINIMAL_PDF)).toBe(true);
    const second = await openAttachment(f, 1);
    expect(second.bytes.equals(PNG)).toBe(true);
  });
});

describe('attachments an administrator makes', () => {
  it("takes an admin's own uploads on any invoice, which no manager may name", async () => {
    const admin = await tokenOf(demoUser('ADMIN'));
    const own = await upload(admin, 'ATTACHMENT', MINIMAL_PDF, 'application/pdf');
    expect(own.startsWith('uploads/admin/')).toBe(true);
    const byManager = await fixture();
    const byAdmin = await fixture();

    expectRefusal(await completeWith(byManager, [own]), 'ERROR_ATTACHMENT_NOT_FOUND', 1);
    const done = await completeWith(byAdmin, [own], admin);

    expect(done.status).toBe(200);
    expect(done.body.attachments).toEqual([own]);
    expect(await detail(byManager)).toMatchObject({ status: 'PENDING', attachments: [] });
  });
});

describe('files as a browser receives them', () => {
  it('shows a PDF that is also HTML only as a PDF, and downloads a picture, sandboxed', async () => {
    const token = await manager();
    const polyglot = await upload(token, 'ATTACHMENT', POLYGLOT, 'application/pdf');
    const png = await upload(token, 'ATTACHMENT', PNG, 'image/png');
    const f = await fixture();
    expect((await completeWith(f, [polyglot, png])).status).toBe(200);

    const pdf = await openAttachment(f, 0);
    const picture = await openAttachment(f, 1);

    expect(pdf.bytes.equals(POLYGLOT)).toBe(true);
    expect(pdf.response.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.response.headers.get('x-content-type-options')).toBe('nosniff');
    // No sandbox on a PDF: it would keep the browser's PDF viewer from showing it (Safari), and the viewer runs no page.
    expect(pdf.response.headers.get('content-security-policy')).toBeNull();
    expect(pdf.response.headers.get('content-disposition')).toBe(
      `inline; filename="${pdf.link.fileName}"; filename*=UTF-8''${pdf.link.fileName}`,
    );
    expect(picture.response.headers.get('content-type')).toBe('image/png');
    expect(picture.response.headers.get('content-disposition')).toBe(
      `attachment; filename="${picture.link.fileName}"; filename*=UTF-8''${picture.link.fileName}`,
    );
    expect(picture.response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(picture.response.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
  });

  it('downloads an XML, never sniffed, sandboxed', async () => {
    const invoice = buildWorld().invoices.find((one) => one.supplierId === SUPPLIER.taxId && one.xmlUrl)!;
    const link = await call<FileLink>(routes.getInvoiceFile, {
      token: await tokenOf(supplierUser(SUPPLIER.taxId)),
      path: { supplierId: invoice.supplierId, invoiceType: invoice.type, invoiceId: invoice.id },
      query: { file: 'xml' },
    });
    const response = await fetch(link.body.url);
    await response.arrayBuffer();

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/xml');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
  });
});

describe('refused uploads leave the bucket', () => {
  const submitXml = async (token: string, file: Buffer) => {
    const key = await upload(token, 'INVOICE_XML', file, 'application/xml');
    return { key, response: await call(routes.createInvoiceFromXml, { token, body: { url: key } }) };
  };

  it('deletes an XML refused for any reason, and only the refused ones', async () => {
    const own = await tokenOf(supplierUser(SUPPLIER.taxId));
    const other = await tokenOf(supplierUser(OTHER_SUPPLIER.taxId));

    const refused = [
      ['unreadable', await submitXml(own, corpus('truncated.xml')), 'ERROR_XML_MALFORMED'],
      ['DOCTYPE', await submitXml(own, corpus('billion-laughs.xml')), 'ERROR_UPLOAD_CONTENT_MISMATCH'],
      ['not SUNAT', await submitXml(own, corpus('not-a-sunat-document.xml')), 'ERROR_XML_UNSUPPORTED_DOCUMENT'],
      [
        'not the caller',
        await submitXml(other, corpus('factura-ubl21-credito.xml')),
        'ERROR_INVOICE_SUPPLIER_NOT_CALLER',
      ],
      ['customer', await submitXml(other, corpus('boleta-ubl21.xml')), 'ERROR_CLIENT_NOT_FOUND'],
    ] as const;
    // The same document twice: the first is stored, the second is a duplicate. The administrator submits it for a
    // test-only supplier to the company no demo manager reviews, so that it stays out of the other tests' listings.
    const admin = await tokenOf(demoUser('ADMIN'));
    const unlisted = Buffer.from(
      corpus('factura-exonerada.xml')
        .toString('utf8')
        .replaceAll(OTHER_SUPPLIER.taxId, withCheckDigit('2070000051'))
        .replaceAll(MANAGERS_OTHER_COMPANY.taxId, CLIENTS[2]!.taxId),
    );
    const first = await submitXml(admin, unlisted);
    const duplicate = await submitXml(admin, unlisted);

    for (const [reason, { response }, code] of refused) {
      expect({ reason, code: response.body?.errors?.[0]?.code }).toEqual({ reason, code });
    }
    expect(duplicate.response.body.errors[0].code).toBe('ERROR_INVOICE_ALREADY_EXISTS');
    const gone = await Promise.all([...refused.map(([, { key }]) => key), duplicate.key].map(inBucket));
    expect(gone).toEqual(refused.map(() => false).concat(false));
    expect(first.response.status).toBe(201);
    expect(await inBucket(first.key)).toBe(true);
  });

  it("keeps an invoice's own file when its key is sent again and refused", async () => {
    const token = await tokenOf(supplierUser(SUPPLIER.taxId));
    // Seven digits: the refused forms below append one and stay within SUNAT's eight.
    const numericId = freshCorrelative();
    const pdf = await upload(token, 'INVOICE_PDF', MINIMAL_PDF, 'application/pdf');
    const form = {
      prefixId: 'F009',
      numericId,
      type: 'FACTURA',
      clientTaxId: COMPANY.taxId,
      supplierTaxId: SUPPLIER.taxId,
      supplierName: SUPPLIER.name,
      currency: 'PEN',
      amount: 118,
      taxAmount: 18,
      issueDate: '2026-11-18',
    };
    const created = await call(routes.createInvoiceWithoutXml, { token, body: { ...form, pdfUrl: pdf } });
    expect(created.status).toBe(201);

    const again = await call(routes.createInvoiceWithoutXml, { token, body: { ...form, pdfUrl: pdf } });
    const wrongRuc = await call(routes.createInvoiceWithoutXml, {
      token,
      body: { ...form, numericId: `${numericId}1`, supplierTaxId: withCheckDigit('2060817235'), pdfUrl: pdf },
    });

    expect(again.body.errors[0].code).toBe('ERROR_INVOICE_ALREADY_EXISTS');
    expect(wrongRuc.body.errors[0].code).toBe('ERROR_INVOICE_SUPPLIER_NOT_CALLER');
    expect(await inBucket(pdf)).toBe(true);

    const refusedPdf = await upload(token, 'INVOICE_PDF', MINIMAL_PDF, 'application/pdf');
    const refused = await call(routes.createInvoiceWithoutXml, {
      token,
      body: { ...form, numericId: `${numericId}2`, supplierTaxId: withCheckDigit('2060817235'), pdfUrl: refusedPdf },
    });
    expect(refused.body.errors[0].code).toBe('ERROR_INVOICE_SUPPLIER_NOT_CALLER');
    expect(await inBucket(refusedPdf)).toBe(false);
  });
});
