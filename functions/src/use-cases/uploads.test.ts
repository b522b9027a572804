import { describe, expect, it } from 'vitest';
import type { DocumentFiles, GetLink, PostPolicy } from '../adapters/s3.js';
import type { Caller } from '../http/caller.js';
import type { StoredInvoice } from '../repositories/invoice-store.js';
import { uploadCalls } from './uploads/upload-calls.fake.js';
import type { UploadPurpose } from './uploads/upload-kinds.js';
import { storedInvoiceFixture } from './invoice.fake.js';

const SUPPLIER_RUC = '20512345678';
const OTHER_RUC = '20498765432';
const CLIENT_RUC = '20100070970';
const NOW = new Date('2026-11-05T15:00:00.000Z');
const ID = '0b6a4f3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
const MB = 1024 * 1024;

const PDF = Buffer.from('%PDF-1.4\n%demo\n');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 8, 0]);
const XML = Buffer.from('\ufeff \n<?xml version="1.0"?><Invoice><ID>F001-1</ID></Invoice>', 'utf8');

function caller(level: Caller['level'], taxIds: string[], activeCompany: string | null = taxIds[0] ?? null): Caller {
  return {
    sub: `${level}-sub`,
    username: `${level}-sub`,
    email: `${level.toLowerCase()}@example.pe`,
    firstName: 'Ana',
    lastName: 'Pérez',
    level,
    taxIds,
    groups: [],
    activeCompany,
    expiresAt: 0,
    signIn: 'PASSWORD',
    txId: 'test-tx',
  };
}
const supplier = caller('SUPPLIER', [SUPPLIER_RUC]);
const otherSupplier = caller('SUPPLIER', [OTHER_RUC]);
const admin = caller('ADMIN', [], null);

interface StoredObject {
  bytes: Uint8Array;
  contentType: string | null;
  metadata: Record<string, string>;
  /** What a second read sees, when the object is replaced between the HEAD and the GET. */
  replacedBy?: Uint8Array | null;
}

/** The documents bucket in memory, recording what the use case asked of it. */
function fakeFiles(options: { failDelete?: boolean } = {}) {
  const objects = new Map<string, StoredObject>();
  const calls = { posts: [] as PostPolicy[], gets: [] as GetLink[], heads: [] as string[], deleted: [] as string[] };
  const files: DocumentFiles = {
    async presignPost(policy) {
      calls.posts.push(policy);
      return { url: 'http://s3.local/documents', fields: { key: policy.key, 'Content-Type': policy.contentType } };
    },
    async presignGet(link) {
      calls.gets.push(link);
      return `http://s3.local/documents/${link.key}?signed`;
    },
    async head(key) {
      calls.heads.push(key);
      const object = objects.get(key);
      return object ? { size: object.bytes.length, contentType: object.contentType, metadata: object.metadata } : null;
    },
    async readStart(key, length) {
      const object = objects.get(key);
      if (!object) return null;
      const bytes = object.replacedBy === undefined ? object.bytes : object.replacedBy;
      return bytes ? bytes.subarray(0, length) : null;
    },
    async delete(key) {
      if (options.failDelete) throw new Error('S3 unavailable');
      calls.deleted.push(key);
      objects.delete(key);
    },
    async put(key, bytes, contentType, metadata) {
      objects.set(key, { bytes, contentType, metadata: { ...metadata } });
    },
  };
  return { files, objects, calls };
}

function invoice(overrides: Partial<StoredInvoice> = {}): StoredInvoice {
  return storedInvoiceFixture({
    id: 'F001-00000042',
    numericId: '00000042',
    certStatus: 'VALID',
    supplierId: SUPPLIER_RUC,
    supplierName: 'Servicios Andinos S.A.C.',
    client: CLIENT_RUC,
    attachments: [`uploads/${SUPPLIER_RUC}/2026/11/${ID}.png`],
    xmlUrl: `uploads/${SUPPLIER_RUC}/2026/11/${ID}.xml`,
    pdfUrl: `uploads/${SUPPLIER_RUC}/2026/11/${ID}.pdf`,
    ...overrides,
  });
}

function setup(options: { failDelete?: boolean; stored?: StoredInvoice | null; inUse?: readonly string[] } = {}) {
  const fake = fakeFiles(options);
  const logged: { level: string; message: string }[] = [];
  const log = {
    info: (message: string) => void logged.push({ level: 'info', message }),
    warn: (message: string) => void logged.push({ level: 'warn', message }),
    error: (message: string) => void logged.push({ level: 'error', message }),
  };
  const stored = options.stored === undefined ? invoice() : options.stored;
  const uploads = uploadCalls({
    files: fake.files,
    invoices: {
      get: async (supplierId, type, id) =>
        stored && stored.supplierId === supplierId && stored.type === type && stored.id === id ? stored : null,
    },
    uses: { inUse: async (key) => (options.inUse ?? []).includes(key) },
    clock: () => NOW,
    newId: () => ID,
    log: log as never,
  });
  return { uploads, ...fake, logged };
}

const keyOf = (tenant: string, ext: string) => `uploads/${tenant}/2026/11/${ID}${ext}`;

describe('upload tickets', () => {
  it('makes the key itself under the caller tenant, and binds the POST to key, type and size', async () => {
    const { uploads, calls } = setup();

    const ticket = await uploads.createTicket(supplier, {
      purpose: 'INVOICE_PDF',
      fileName: '../../Factura marzo (copia).pdf',
      contentType: 'application/pdf',
      size: 2000,
    });

    expect(ticket).toEqual({
      key: `uploads/${SUPPLIER_RUC}/2026/11/${ID}.pdf`,
      url: 'http://s3.local/documents',
      fields: { key: ticket.key, 'Content-Type': 'application/pdf' },
      expiresAt: '2026-11-05T15:05:00.000Z',
      maxBytes: 10 * MB,
    });
    expect(ticket.key).not.toContain('Factura');
    expect(calls.posts).toEqual([
      {
        key: ticket.key,
        contentType: 'application/pdf',
        maxBytes: 10 * MB,
        expiresInSeconds: 300,
        metadata: { filename: encodeURIComponent('Factura marzo (copia).pdf') },
      },
    ]);
  });

  it('files an admin acting for no company under "admin", and takes a charset-qualified XML type', async () => {
    const { uploads } = setup();

    const ticket = await uploads.createTicket(admin, {
      purpose: 'INVOICE_XML',
      fileName: 'factura.xml',
      contentType: 'Text/XML; charset=UTF-8',
      size: 900,
    });

    expect(ticket.key).toBe(`uploads/admin/2026/11/${ID}.xml`);
    expect(ticket.maxBytes).toBe(2 * MB);
  });

  it.each([
    ['INVOICE_PDF', 'image/png', 'application/pdf'],
    ['INVOICE_XML', 'application/pdf', 'application/xml, text/xml'],
    ['ATTACHMENT', 'text/html', 'application/pdf, image/png, image/jpeg'],
  ] as const)('refuses a %s declared as %s, naming the types allowed', async (purpose, contentType, allowed) => {
    const { uploads, calls } = setup();

    const refused = uploads.createTicket(supplier, { purpose, fileName: 'x', contentType, size: 10 });

    await expect(refused).rejects.toMatchObject({
      statusCode: 400,
      errors: [{ code: 'ERROR_UPLOAD_TYPE_NOT_ALLOWED', parameters: { contentType, allowed } }],
    });
    expect(calls.posts).toEqual([]);
  });

  it('refuses a declared size above the purpose limit, in words a person reads', async () => {
    const { uploads } = setup();

    const refused = uploads.createTicket(supplier, {
      purpose: 'INVOICE_XML',
      fileName: 'grande.xml',
      contentType: 'application/xml',
      size: 2 * MB + 1,
    });

    await expect(refused).rejects.toMatchObject({
      statusCode: 400,
      message: 'El archivo supera el tamaño máximo permitido de 2 MB.',
      errors: [{ code: 'ERROR_UPLOAD_TOO_LARGE', parameters: { maxBytes: 2 * MB } }],
    });
  });
});

describe('verifyUpload', () => {
  const store = (
    objects: Map<string, StoredObject>,
    key: string,
    bytes: Uint8Array,
    contentType: string | null,
    fileName = 'Factura%20n%C2%BA%201.pdf',
  ) => objects.set(key, { bytes, contentType, metadata: { filename: fileName } });

  it('accepts a PDF that is one, and answers the user file name from the metadata', async () => {
    const { uploads, objects, calls } = setup();
    const key = keyOf(SUPPLIER_RUC, '.pdf');
    store(objects, key, PDF, 'application/pdf');

    const verified = await uploads.verifyUpload(key, 'INVOICE_PDF', supplier);

    expect(verified).toEqual({ key, size: PDF.length, contentType: 'application/pdf', fileName: 'Factura nº 1.pdf' });
    expect(calls.deleted).toEqual([]);
  });

  it("accepts a zip of documents by its first bytes ('PK\\x03\\x04'), also as Windows' browsers type it", async () => {
    const { uploads, objects, calls } = setup();
    for (const contentType of ['application/zip', 'application/x-zip-compressed']) {
      const key = keyOf(SUPPLIER_RUC, '.zip');
      store(objects, key, ZIP, contentType, 'marzo.zip');
      const verified = await uploads.verifyUpload(key, 'INVOICE_ZIP', supplier);
      expect(verified).toEqual({ key, size: ZIP.length, contentType, fileName: 'marzo.zip' });
    }
    expect(calls.deleted).toEqual([]);
  });

  it('reads an XML whole (BOM and whitespace before the first tag are fine)', async () => {
    const { uploads, objects } = setup();
    const key = keyOf(SUPPLIER_RUC, '.xml');
    store(objects, key, XML, 'text/xml', 'factura.xml');

    const verified = await uploads.verifyUpload(key, 'INVOICE_XML', supplier);

    expect(verified.bytes && Buffer.from(verified.bytes).equals(XML)).toBe(true);
    expect(verified.fileName).toBe('factura.xml');
  });

  it.each([
    ['.png', PNG, 'image/png'],
    ['.jpg', JPEG, 'image/jpeg'],
    ['.pdf', PDF, 'application/pdf'],
  ])('accepts an attachment %s whose bytes match its type', async (ext, bytes, contentType) => {
    const { uploads, objects } = setup();
    const key = keyOf(SUPPLIER_RUC, ext);
    store(objects, key, bytes, contentType);

    await expect(uploads.verifyUpload(key, 'ATTACHMENT', supplier)).resolves.toMatchObject({ key, contentType });
  });

  it('lets an admin verify an upload of any tenant', async () => {
    const { uploads, objects } = setup();
    const key = keyOf(SUPPLIER_RUC, '.pdf');
    store(objects, key, PDF, 'application/pdf');

    await expect(uploads.verifyUpload(key, 'INVOICE_PDF', admin)).resolves.toMatchObject({ key });
  });

  it.each([
    ['another tenant', keyOf(SUPPLIER_RUC, '.pdf')],
    ['a key the server did not make', `seed/${OTHER_RUC}/F001-1.pdf`],
    ['a key that climbs out of its prefix', `uploads/${OTHER_RUC}/../${SUPPLIER_RUC}/2026/11/${ID}.pdf`],
  ])('answers not found for %s, without looking at it or deleting it', async (_, key) => {
    const { uploads, objects, calls } = setup();
    store(objects, key, PDF, 'application/pdf');

    await expect(uploads.verifyUpload(key, 'INVOICE_PDF', otherSupplier)).rejects.toMatchObject({
      statusCode: 400,
      code: 'ERROR_UPLOAD_NOT_FOUND',
    });
    expect(calls.heads).toEqual([]);
    expect(objects.has(key)).toBe(true);
  });

  it('answers not found when nothing was uploaded under the key', async () => {
    const { uploads } = setup();

    await expect(uploads.verifyUpload(keyOf(SUPPLIER_RUC, '.pdf'), 'INVOICE_PDF', supplier)).rejects.toMatchObject({
      code: 'ERROR_UPLOAD_NOT_FOUND',
    });
  });

  it('answers not found when the object vanishes between the look and the read', async () => {
    const { uploads, objects } = setup();
    const key = keyOf(SUPPLIER_RUC, '.pdf');
    objects.set(key, { bytes: PDF, contentType: 'application/pdf', metadata: {}, replacedBy: null });

    await expect(uploads.verifyUpload(key, 'INVOICE_PDF', supplier)).rejects.toMatchObject({
      code: 'ERROR_UPLOAD_NOT_FOUND',
    });
  });

  it('refuses and deletes an object larger than its purpose allows (the policy is not trusted)', async () => {
    const { uploads, objects, calls } = setup();
    const key = keyOf(SUPPLIER_RUC, '.xml');
    store(objects, key, Buffer.concat([Buffer.from('<a>'), Buffer.alloc(2 * MB)]), 'application/xml');

    await expect(uploads.verifyUpload(key, 'INVOICE_XML', supplier)).rejects.toMatchObject({
      statusCode: 400,
      errors: [{ code: 'ERROR_UPLOAD_TOO_LARGE', parameters: { maxBytes: 2 * MB, maxSize: '2 MB' } }],
    });
    expect(calls.deleted).toEqual([key]);
  });

  type Case = [string, UploadPurpose, string, Uint8Array, string | null, string];
  const mismatches: Case[] = [
    ['a PNG sent with a PDF ticket', 'INVOICE_PDF', '.pdf', PNG, 'application/pdf', 'PDF'],
    ['a PDF stored as a PNG attachment', 'ATTACHMENT', '.png', PDF, 'image/png', 'PNG'],
    ['a PNG stored as a JPEG attachment', 'ATTACHMENT', '.jpg', PNG, 'image/jpeg', 'JPG'],
    ['an empty PDF', 'INVOICE_PDF', '.pdf', new Uint8Array(0), 'application/pdf', 'PDF'],
    [
      'an XML with a DOCTYPE',
      'INVOICE_XML',
      '.xml',
      Buffer.from('<?xml version="1.0"?><!doctype x [<!ENTITY a "b">]><x/>'),
      'application/xml',
      'XML',
    ],
    ['binary sent as XML', 'INVOICE_XML', '.xml', Buffer.from([0x3c, 0x00, 0x3f, 0x00]), 'application/xml', 'XML'],
    ['text that is not XML', 'INVOICE_XML', '.xml', Buffer.from('hola'), 'text/xml', 'XML'],
    ['a stored type the purpose does not take', 'INVOICE_PDF', '.pdf', PDF, 'text/html', 'PDF'],
    ['no stored type at all', 'ATTACHMENT', '.pdf', PDF, null, 'PDF, PNG, JPG'],
    ['a stored type that disagrees with the key', 'ATTACHMENT', '.png', PDF, 'application/pdf', 'PDF, PNG, JPG'],
    ['a PDF sent with a zip ticket', 'INVOICE_ZIP', '.zip', PDF, 'application/zip', 'ZIP'],
    // An empty zip is its end record alone: no document in it.
    ['an empty zip', 'INVOICE_ZIP', '.zip', Buffer.from([0x50, 0x4b, 0x05, 0x06, 0, 0]), 'application/zip', 'ZIP'],
  ];
  it.each(mismatches)('refuses and deletes %s', async (_, purpose, ext, bytes, contentType, expected) => {
    const { uploads, objects, calls, logged } = setup();
    const key = keyOf(SUPPLIER_RUC, ext);
    store(objects, key, bytes, contentType);

    await expect(uploads.verifyUpload(key, purpose, supplier)).rejects.toMatchObject({
      statusCode: 400,
      errors: [{ code: 'ERROR_UPLOAD_CONTENT_MISMATCH', parameters: { expected } }],
    });
    expect(calls.deleted).toEqual([key]);
    expect(objects.has(key)).toBe(false);
    expect(logged).toContainEqual({ level: 'warn', message: 'upload refused and deleted' });
  });

  it('refuses an XML replaced by a different one between the look and the read', async () => {
    const { uploads, objects, calls } = setup();
    const key = keyOf(SUPPLIER_RUC, '.xml');
    objects.set(key, { bytes: XML, contentType: 'application/xml', metadata: {}, replacedBy: Buffer.from('<a/>') });

    await expect(uploads.verifyUpload(key, 'INVOICE_XML', supplier)).rejects.toMatchObject({
      code: 'ERROR_UPLOAD_CONTENT_MISMATCH',
    });
    expect(calls.deleted).toEqual([key]);
  });

  it('still refuses, and logs it, when the refused object cannot be deleted', async () => {
    const { uploads, objects, logged } = setup({ failDelete: true });
    const key = keyOf(SUPPLIER_RUC, '.pdf');
    store(objects, key, PNG, 'application/pdf');

    await expect(uploads.verifyUpload(key, 'INVOICE_PDF', supplier)).rejects.toMatchObject({
      code: 'ERROR_UPLOAD_CONTENT_MISMATCH',
    });
    expect(logged).toContainEqual({ level: 'error', message: 'refused upload could not be deleted' });
  });
});

describe('verifyAttachment', () => {
  const store = (objects: Map<string, StoredObject>, key: string, bytes: Uint8Array, contentType: string) =>
    objects.set(key, { bytes, contentType, metadata: { filename: 'sustento.pdf' } });

  it("accepts an upload of the invoice's company that is what it says", async () => {
    const { uploads, objects, calls } = setup();
    const key = keyOf(CLIENT_RUC, '.pdf');
    store(objects, key, PDF, 'application/pdf');

    await expect(uploads.verifyAttachment(key, [CLIENT_RUC], 1)).resolves.toMatchObject({
      key,
      fileName: 'sustento.pdf',
    });
    expect(calls.deleted).toEqual([]);
  });

  it("answers another tenant's upload exactly as a missing one, without even looking at it", async () => {
    const { uploads, objects, calls } = setup();
    const others = keyOf(SUPPLIER_RUC, '.pdf');
    store(objects, others, PDF, 'application/pdf');

    const foreign = uploads.verifyAttachment(others, [CLIENT_RUC], 2);
    const missing = uploads.verifyAttachment(keyOf(CLIENT_RUC, '.png'), [CLIENT_RUC], 2);
    const madeUp = uploads.verifyAttachment('adjuntos/sustento.pdf', [CLIENT_RUC], 2);

    const codes = await Promise.all(
      [foreign, missing, madeUp].map((attempt) =>
        attempt.then(
          () => null,
          (error: { statusCode: number; errors: { code: string; parameters: Record<string, unknown> }[] }) => [
            error.statusCode,
            error.errors[0]!.code,
            error.errors[0]!.parameters.position,
          ],
        ),
      ),
    );
    expect(codes).toEqual([
      [400, 'ERROR_ATTACHMENT_NOT_FOUND', 2],
      [400, 'ERROR_ATTACHMENT_NOT_FOUND', 2],
      [400, 'ERROR_ATTACHMENT_NOT_FOUND', 2],
    ]);
    expect(calls.heads).not.toContain(others);
    expect(objects.has(others)).toBe(true);
  });

  it.each([
    ['a PNG declared as PDF', '.pdf', PNG, 'application/pdf'],
    ['an XML (not a supporting document)', '.xml', XML, 'application/xml'],
    ['a file too large', '.jpg', Buffer.concat([JPEG, Buffer.alloc(10 * MB)]), 'image/jpeg'],
  ])('refuses %s with its own code and deletes it', async (_, ext, bytes, type) => {
    const { uploads, objects, calls } = setup();
    const key = keyOf(CLIENT_RUC, ext);
    store(objects, key, bytes, type);

    await expect(uploads.verifyAttachment(key, [CLIENT_RUC], 3)).rejects.toMatchObject({
      statusCode: 400,
      errors: [
        {
          code: 'ERROR_ATTACHMENT_INVALID',
          parameters: { attachment: key, position: 3, allowed: 'PDF, PNG, JPG', maxSize: '10 MB' },
        },
      ],
      message:
        'El documento de sustento n.º 3 no es un archivo PDF, PNG, JPG válido de hasta 10 MB; se eliminó. Súbalo nuevamente.',
    });
    expect(calls.deleted).toEqual([key]);
  });

  it('refuses, but keeps, a file an invoice already uses (an XML offered as an attachment)', async () => {
    const key = keyOf(CLIENT_RUC, '.xml');
    const { uploads, objects, calls, logged } = setup({ inUse: [key] });
    store(objects, key, XML, 'application/xml');

    await expect(uploads.verifyAttachment(key, [CLIENT_RUC], 1)).rejects.toMatchObject({
      code: 'ERROR_ATTACHMENT_INVALID',
    });
    expect(calls.deleted).toEqual([]);
    expect(logged).toContainEqual({ level: 'warn', message: 'upload refused, kept: an invoice uses it' });
  });
});

describe('storeReceived (a zip’s entry, an e-mail’s attachment)', () => {
  it('stores the file as an upload of the caller’s tenant that verifyUpload checks like any other', async () => {
    const { uploads } = setup();
    const key = await uploads.storeReceived(supplier, 'zip/b1/F001-1', 'pdf', { name: 'dir/F001-1.pdf', bytes: PDF });

    expect(key).toMatch(new RegExp(`^uploads/${SUPPLIER_RUC}/2026/11/[0-9a-f-]{36}\\.pdf$`));
    expect(await uploads.verifyUpload(key, 'INVOICE_PDF', supplier)).toMatchObject({ key, fileName: 'F001-1.pdf' });
    await expect(uploads.verifyUpload(key, 'INVOICE_PDF', otherSupplier)).rejects.toMatchObject({
      code: 'ERROR_UPLOAD_NOT_FOUND',
    });
  });

  it('lands the same document from the same source on the same key, another source on another', async () => {
    const { uploads } = setup();
    const file = { name: 'F001-1.xml', bytes: new TextEncoder().encode('<Invoice/>') };
    const first = await uploads.storeReceived(supplier, 'zip/b1/F001-1', 'xml', file);

    expect(await uploads.storeReceived(supplier, 'zip/b1/F001-1', 'xml', file)).toBe(first);
    expect(await uploads.storeReceived(supplier, 'zip/b2/F001-1', 'xml', file)).not.toBe(first);
    expect(await uploads.storeReceived(supplier, 'zip/b1/F001-1', 'cdr', file)).not.toBe(first);
  });

  // Checked in hand: verifyUpload's checks run on the bytes in hand, so the file is never read back from the bucket.
  it.each([
    ['a PDF that is not one', 'pdf', Buffer.from('<html>hola</html>'), 'ERROR_UPLOAD_CONTENT_MISMATCH'],
    ['an XML that is a PDF', 'xml', PDF, 'ERROR_UPLOAD_CONTENT_MISMATCH'],
    [
      'an XML with a DOCTYPE',
      'xml',
      Buffer.from('<!DOCTYPE x [<!ENTITY e "e">]><Invoice/>'),
      'ERROR_UPLOAD_CONTENT_MISMATCH',
    ],
    ['an empty XML', 'xml', Buffer.alloc(0), 'ERROR_UPLOAD_CONTENT_MISMATCH'],
    [
      'an XML over 2 MB',
      'xml',
      Buffer.concat([Buffer.from('<Invoice>'), Buffer.alloc(2 * MB, 0x20)]),
      'ERROR_UPLOAD_TOO_LARGE',
    ],
    ['a PDF over 10 MB', 'pdf', Buffer.concat([PDF, Buffer.alloc(10 * MB)]), 'ERROR_UPLOAD_TOO_LARGE'],
    [
      'a CDR over its reader’s limit',
      'cdr',
      Buffer.concat([Buffer.from('<R>'), Buffer.alloc(MB, 0x20)]),
      'ERROR_UPLOAD_TOO_LARGE',
    ],
  ] as const)('refuses %s as verifyUpload would, and stores nothing', async (_, part, bytes, code) => {
    const { uploads, objects, calls } = setup();
    await expect(uploads.storeReceived(supplier, 'zip/b1/F001-1', part, { name: 'f', bytes })).rejects.toMatchObject({
      code,
    });
    expect([...objects.keys()]).toEqual([]);
    expect(calls.heads).toEqual([]);
  });

  it('stores nothing for a caller acting for a company that is not theirs', async () => {
    const { uploads, objects } = setup();
    const stranger = caller('SUPPLIER', [SUPPLIER_RUC], OTHER_RUC);
    await expect(
      uploads.storeReceived(stranger, 'zip/b1/F001-1', 'pdf', { name: 'F001-1.pdf', bytes: PDF }),
    ).rejects.toMatchObject({ code: 'ERROR_UPLOAD_NOT_FOUND' });
    expect([...objects.keys()]).toEqual([]);
  });

  it('stores what passes without reading it back (one request per file)', async () => {
    const { uploads, objects, calls } = setup();
    const key = await uploads.storeReceived(supplier, 'zip/b1/F001-1', 'xml', { name: 'F001-1.xml', bytes: XML });

    expect(objects.get(key)).toMatchObject({ contentType: 'application/xml', metadata: { filename: 'F001-1.xml' } });
    expect(calls.heads).toEqual([]);
  });
});

describe('discardRefused', () => {
  it('deletes an upload the intake refused after verifying it, unless an invoice uses it', async () => {
    const free = keyOf(SUPPLIER_RUC, '.xml');
    const used = keyOf(OTHER_RUC, '.xml');
    const { uploads, calls } = setup({ inUse: [used] });

    await uploads.discardRefused(free, 'duplicate', 'ERROR_INVOICE_ALREADY_EXISTS');
    await uploads.discardRefused(used, 'duplicate', 'ERROR_INVOICE_ALREADY_EXISTS');

    expect(calls.deleted).toEqual([free]);
  });
});

describe('invoice file links', () => {
  const path = { supplierId: SUPPLIER_RUC, invoiceType: 'FACTURA', invoiceId: 'F001-00000042' } as const;

  it('shows the PDF inline for five minutes, named after the supplier and the invoice', async () => {
    const { uploads, calls } = setup();

    const link = await uploads.fileLink(supplier, path, { file: 'pdf' });

    expect(link).toEqual({
      url: `http://s3.local/documents/${invoice().pdfUrl}?signed`,
      expiresAt: '2026-11-05T15:05:00.000Z',
      fileName: `${SUPPLIER_RUC}-F001-00000042.pdf`,
    });
    expect(calls.gets).toEqual([
      {
        key: invoice().pdfUrl,
        expiresInSeconds: 300,
        contentDisposition: `inline; filename="${link.fileName}"; filename*=UTF-8''${link.fileName}`,
        contentType: 'application/pdf',
      },
    ]);
  });

  it('downloads the XML as an attachment and shows an attachment by its position', async () => {
    const { uploads, calls } = setup();

    const xml = await uploads.fileLink(supplier, path, { file: 'xml' });
    const png = await uploads.fileLink(caller('MANAGER', [CLIENT_RUC]), path, { file: 'attachment', index: 0 });

    expect(xml.fileName).toBe(`${SUPPLIER_RUC}-F001-00000042.xml`);
    expect(calls.gets[0]!.contentDisposition).toMatch(/^attachment; filename="/);
    expect(png.fileName).toBe(`${SUPPLIER_RUC}-F001-00000042-adjunto-1.png`);
    expect(calls.gets[1]).toMatchObject({ key: invoice().attachments[0], contentType: 'image/png' });
    expect(calls.gets[1]!.contentDisposition).toMatch(/^attachment; filename="/);
  });

  it('shows inline only a PDF, and states every type itself (application/octet-stream when unknown)', async () => {
    const attachments = [keyOf(CLIENT_RUC, '.pdf'), keyOf(CLIENT_RUC, '.jpg'), 'adjuntos/antiguo.html'];
    const { uploads, calls } = setup({ stored: invoice({ attachments }) });

    for (const index of [0, 1, 2]) await uploads.fileLink(supplier, path, { file: 'attachment', index });

    expect(
      calls.gets.map(({ contentType, contentDisposition }) => [contentType, contentDisposition.split(';')[0]]),
    ).toEqual([
      ['application/pdf', 'inline'],
      ['image/jpeg', 'attachment'],
      ['application/octet-stream', 'attachment'],
    ]);
  });

  it.each([
    ['an XML the invoice does not have', invoice({ xmlUrl: null }), { file: 'xml' as const }],
    ['an attachment past the last one', invoice(), { file: 'attachment' as const, index: 1 }],
  ])('answers 404 for %s', async (_, stored, query) => {
    const { uploads, calls } = setup({ stored });

    await expect(uploads.fileLink(supplier, path, query)).rejects.toMatchObject({
      statusCode: 404,
      code: 'ERROR_FILE_NOT_FOUND',
    });
    expect(calls.gets).toEqual([]);
  });

  it('answers 404 invoice-not-found for another tenant, as the invoice detail does', async () => {
    const { uploads, calls } = setup();

    await expect(uploads.fileLink(otherSupplier, path, { file: 'pdf' })).rejects.toMatchObject({
      statusCode: 404,
      code: 'ERROR_INVOICE_NOT_FOUND',
    });
    await expect(uploads.fileLink(caller('MANAGER', [OTHER_RUC]), path, { file: 'pdf' })).rejects.toMatchObject({
      code: 'ERROR_INVOICE_NOT_FOUND',
    });
    expect(calls.gets).toEqual([]);
  });
});
