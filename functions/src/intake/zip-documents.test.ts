import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { openZipDocuments, ZIP_LIMITS, ZipRefusedError, type ZipDocument, type ZipSource } from './zip-documents.js';

type File = [name: string, content: Buffer | string, options?: { compress?: boolean }];

/** A real zip, written by yazl (the same author's writer). */
async function zipOf(files: File[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content, options] of files) {
    zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name, options);
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Renames an entry in place, in its local header and the central directory (a writer refuses hostile names). */
function rename(zip: Buffer, from: string, to: string): Buffer {
  const a = Buffer.from(from);
  const b = Buffer.from(to, 'latin1');
  expect(b.length).toBe(a.length);
  let at = zip.indexOf(a);
  expect(at).toBeGreaterThanOrEqual(0);
  while (at >= 0) {
    b.copy(zip, at);
    at = zip.indexOf(a, at + 1);
  }
  return zip;
}

/** The offset of an entry's central directory record. */
function centralRecord(zip: Buffer, name: string): number {
  for (let at = zip.indexOf('PK\x01\x02'); at >= 0; at = zip.indexOf('PK\x01\x02', at + 4)) {
    const length = zip.readUInt16LE(at + 28);
    if (zip.subarray(at + 46, at + 46 + length).toString() === name) return at;
  }
  throw new Error(`no entry ${name}`);
}

const xml = (id: string) => `<?xml version="1.0" encoding="UTF-8"?><Invoice><cbc:ID>${id}</cbc:ID></Invoice>`;
const pdf = (id: string) => `%PDF-1.7\n% ${id}\n%%EOF\n`;
const cdr = (id: string) => `<?xml version="1.0"?><ApplicationResponse><cbc:ID>${id}</cbc:ID></ApplicationResponse>`;
const base = (n: number) => `20100066603-01-F001-${String(n).padStart(8, '0')}`;

async function refusal(promise: Promise<unknown>): Promise<ZipRefusedError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ZipRefusedError);
  return error as ZipRefusedError;
}

async function allDocuments(source: ZipSource): Promise<ZipDocument[]> {
  const documents = await openZipDocuments(source);
  const out: ZipDocument[] = [];
  for await (const document of documents) out.push(document);
  return out;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a good zip', () => {
  it('yields each XML with its PDF and its CDR, as R-*.xml or R-*.zip, one document at a time', async () => {
    const cdrZip = await zipOf([[`R-${base(2)}.xml`, cdr(base(2))]]);
    const zip = await zipOf([
      [`${base(1)}.xml`, xml(base(1))],
      [`${base(1)}.pdf`, pdf(base(1))],
      [`R-${base(1)}.xml`, cdr(base(1))],
      [`${base(2)}.XML`, xml(base(2))],
      [`${base(2)}.PDF`, pdf(base(2)), { compress: false }],
      [`R-${base(2)}.zip`, cdrZip],
      [`${base(3)}.xml`, xml(base(3))],
    ]);

    const documents = await openZipDocuments(zip);
    expect(documents.documentCount).toBe(3);
    expect(documents.entryCount).toBe(7);
    const read: ZipDocument[] = [];
    for await (const document of documents) read.push(document);

    expect(read.map((d) => [d.base, d.ok])).toEqual([
      [base(1), true],
      [base(2), true],
      [base(3), true],
    ]);
    const [first, second, third] = read as Extract<ZipDocument, { ok: true }>[];
    expect(first!.xml.bytes.toString()).toBe(xml(base(1)));
    expect(first!.pdf?.bytes.toString()).toBe(pdf(base(1)));
    expect(first!.cdr).toEqual({ name: `R-${base(1)}.xml`, bytes: Buffer.from(cdr(base(1))) });
    expect(second!.xml.name).toBe(`${base(2)}.XML`);
    expect(second!.pdf?.bytes.toString()).toBe(pdf(base(2)));
    expect(second!.cdr).toEqual({ name: `R-${base(2)}.xml`, bytes: Buffer.from(cdr(base(2))) });
    expect(third!.pdf).toBeUndefined();
    expect(third!.cdr).toBeUndefined();
  });

  it('reads a CDR zip as SUNAT sends it, with its empty dummy/ folder', async () => {
    const sunat = new yazl.ZipFile();
    sunat.addEmptyDirectory('dummy');
    sunat.addBuffer(Buffer.from(cdr(base(1))), `R-${base(1)}.xml`);
    sunat.end();
    const chunks: Buffer[] = [];
    for await (const chunk of sunat.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
    const zip = await zipOf([
      [`${base(1)}.xml`, xml(base(1))],
      [`R-${base(1)}.zip`, Buffer.concat(chunks)],
    ]);

    const [document] = await allDocuments(zip);
    expect(document).toMatchObject({ ok: true, cdr: { name: `R-${base(1)}.xml` } });
  });

  it('reads a zip from a file path as from a buffer', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'zip-documents-'));
    try {
      const file = path.join(dir, 'lote.zip');
      await writeFile(
        file,
        await zipOf([
          [`${base(1)}.xml`, xml(base(1))],
          [`${base(1)}.pdf`, pdf(base(1))],
        ]),
      );
      const [document] = await allDocuments({ path: file });
      expect(document).toMatchObject({ ok: true, base: base(1), pdf: { name: `${base(1)}.pdf` } });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads 500 documents, the most a zip may hold', async () => {
    const files: File[] = [];
    for (let n = 1; n <= 500; n++) files.push([`${base(n)}.xml`, xml(base(n))], [`${base(n)}.pdf`, pdf(base(n))]);
    const read = await allDocuments(await zipOf(files));
    expect(read).toHaveLength(500);
    expect(read.every((d) => d.ok && d.pdf?.bytes.toString() === pdf(d.base))).toBe(true);
  });
});

describe('a document of the zip with a problem, the others still taken', () => {
  it('reports a PDF without its XML for that document only', async () => {
    const zip = await zipOf([
      [`${base(1)}.xml`, xml(base(1))],
      [`${base(2)}.pdf`, pdf(base(2))],
    ]);
    const [good, lone] = await allDocuments(zip);
    expect(good).toMatchObject({ ok: true, base: base(1) });
    expect(lone).toMatchObject({
      ok: false,
      base: base(2),
      names: [`${base(2)}.pdf`],
      error: { code: 'ERROR_ZIP_DOCUMENT_WITHOUT_XML' },
      message: `Falta el XML de «${base(2)}»: el ZIP trae ${base(2)}.pdf sin su XML.`,
    });
  });

  it('refuses a document with two CDRs', async () => {
    const zip = await zipOf([
      [`${base(1)}.xml`, xml(base(1))],
      [`R-${base(1)}.xml`, cdr(base(1))],
      [`R-${base(1)}.zip`, await zipOf([[`R-${base(1)}.xml`, cdr(base(1))]])],
    ]);
    const [document] = await allDocuments(zip);
    expect(document).toMatchObject({ ok: false, error: { code: 'ERROR_ZIP_DOCUMENT_TWO_CDRS' } });
  });

  it('refuses the document whose CDR zip holds more than its one XML, or another zip', async () => {
    const twoXml = await zipOf([
      [`R-${base(1)}.xml`, cdr(base(1))],
      [`R-${base(9)}.xml`, cdr(base(9))],
    ]);
    const inner = await zipOf([[`x.pdf`, pdf('x')]]);
    const nested = await zipOf([[`R-${base(2)}.zip`, await zipOf([[`R-${base(2)}.xml`, cdr(base(2))]])]]);
    const zip = await zipOf([
      [`${base(1)}.xml`, xml(base(1))],
      [`R-${base(1)}.zip`, twoXml],
      [`${base(2)}.xml`, xml(base(2))],
      [`R-${base(2)}.zip`, nested],
      [`${base(3)}.xml`, xml(base(3))],
      [`R-${base(3)}.zip`, rename(inner, 'x.pdf', '../pd')],
      [`${base(4)}.xml`, xml(base(4))],
    ]);

    const [one, two, three, four] = await allDocuments(zip);
    expect(one).toMatchObject({
      ok: false,
      error: { code: 'ERROR_ZIP_CDR_INVALID', parameters: { cause: 'ERROR_ZIP_CDR_CONTENT' } },
    });
    expect(one!.ok || one!.message).toContain('debe contener un único XML de SUNAT');
    expect(one!.ok || one!.error.parameters.reason).toBe(
      'El ZIP del CDR debe contener un único XML de SUNAT (R-<nombre>.xml).',
    );
    expect(two).toMatchObject({
      ok: false,
      error: { code: 'ERROR_ZIP_CDR_INVALID', parameters: { cause: 'ERROR_ZIP_NESTED' } },
    });
    expect(two!.ok || two!.message).toContain('contiene otro ZIP');
    expect(three).toMatchObject({
      ok: false,
      error: { code: 'ERROR_ZIP_CDR_INVALID', parameters: { cause: 'ERROR_ZIP_UNSAFE_NAME' } },
    });
    expect(three!.ok || three!.message).toContain('no está permitido');
    expect(four).toMatchObject({ ok: true, base: base(4) });
  });
});

describe('a hostile zip is refused whole, before anything is inflated', () => {
  it('refuses 501 documents', async () => {
    const files: File[] = [];
    for (let n = 1; n <= 501; n++) files.push([`${base(n)}.xml`, xml(base(n))]);
    const error = await refusal(openZipDocuments(await zipOf(files)));
    expect(error.code).toBe('ERROR_ZIP_TOO_MANY_DOCUMENTS');
    expect(error.message).toBe('El ZIP contiene 501 comprobantes; el máximo por ZIP es 500. Divídalo en varios ZIP.');
  });

  it('refuses more entries than three per document, from the count of the central directory', async () => {
    const files: File[] = [];
    for (let n = 1; n <= ZIP_LIMITS.maxEntries + 1; n++) files.push([`${n}.pdf`, '']);
    const read = vi.spyOn(yauzl.ZipFile.prototype, 'readEntry');
    const error = await refusal(openZipDocuments(await zipOf(files)));
    expect(error.code).toBe('ERROR_ZIP_TOO_MANY_ENTRIES');
    expect(read).not.toHaveBeenCalled();
  });

  it('refuses a zip bomb (50 MB of zeros) by its ratio, without inflating it', async () => {
    const bomb = await zipOf([[`${base(1)}.xml`, Buffer.alloc(50 * 1024 * 1024)]]);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const inflate = vi.spyOn(yauzl.ZipFile.prototype, 'openReadStream');
    const error = await refusal(openZipDocuments(bomb));
    expect(error.code).toBe('ERROR_ZIP_SUSPICIOUS_RATIO');
    expect(error.message).toMatch(
      /^El archivo «20100066603-01-F001-00000001\.xml» del ZIP tiene una compresión inusual \(\d+ a 1\)/,
    );
    expect(inflate).not.toHaveBeenCalled();
  });

  it('refuses an XML or PDF over its own limit, and a zip over its total', async () => {
    const bigXml = await zipOf([[`${base(1)}.xml`, randomBytes(ZIP_LIMITS.maxXmlBytes + 512 * 1024)]]);
    const error = await refusal(openZipDocuments(bigXml));
    expect(error.code).toBe('ERROR_ZIP_ENTRY_TOO_LARGE');
    expect(error.message).toBe(`El archivo «${base(1)}.xml» del ZIP ocupa 2.5 MB; un XML puede ocupar hasta 2 MB.`);

    const files: File[] = [];
    for (let n = 1; n <= 4; n++) files.push([`${base(n)}.pdf`, randomBytes(40 * 1024)]);
    const total = await refusal(openZipDocuments(await zipOf(files), { ...ZIP_LIMITS, maxTotalBytes: 100 * 1024 }));
    expect(total.code).toBe('ERROR_ZIP_TOO_LARGE');
    expect(total.message).toBe('El contenido del ZIP supera los 100 KB sin comprimir. Divídalo en varios ZIP.');
  });

  it.each([
    ['../x.xml', 'aa/x.xml', 'sale de la raíz del ZIP (..)'],
    ['/abs.xml', 'Xabs.xml', 'es una ruta absoluta'],
    ['C:abs.xml', 'CXabs.xml', 'es una ruta absoluta'],
    ['a\\b.xml', 'a_b.xml', 'contiene una barra invertida (\\)'],
    ['docs/a.xml', 'docs/a.xml', 'está dentro de una carpeta'],
    ['a\u0001b.xml', 'a_b.xml', 'contiene caracteres de control'],
  ])('refuses the name %j', async (hostile, written, reason) => {
    const zip = rename(await zipOf([[written, xml('x')]]), written, hostile);
    const error = await refusal(openZipDocuments(zip));
    expect(error.code).toBe('ERROR_ZIP_UNSAFE_NAME');
    expect(error.errors[0]!.parameters.reason).toBe(reason);
    // eslint-disable-next-line no-control-regex -- a control character must not reach the message
    expect(error.message).not.toMatch(/[\u0000-\u001f]/);
  });

  it('refuses the same name twice, whatever its case', async () => {
    const zip = await zipOf([
      [`${base(1)}.xml`, xml(base(1))],
      [`${base(1)}.XML`, xml(base(1))],
    ]);
    expect((await refusal(openZipDocuments(zip))).code).toBe('ERROR_ZIP_DUPLICATE_NAME');
  });

  it('refuses a zip inside that is not a CDR', async () => {
    const zip = await zipOf([
      [`${base(1)}.xml`, xml(base(1))],
      ['otros.zip', await zipOf([['a.xml', xml('a')]])],
    ]);
    const error = await refusal(openZipDocuments(zip));
    expect(error.code).toBe('ERROR_ZIP_NESTED');
    expect(error.message).toContain('«otros.zip»');
  });

  it('refuses a file that is no XML, PDF or CDR', async () => {
    const zip = await zipOf([
      [`${base(1)}.xml`, xml(base(1))],
      ['.DS_Store', 'x'],
    ]);
    expect((await refusal(openZipDocuments(zip))).code).toBe('ERROR_ZIP_UNKNOWN_FILE_TYPE');
  });

  it('refuses an encrypted entry', async () => {
    const zip = await zipOf([[`${base(1)}.xml`, xml(base(1))]]);
    const record = centralRecord(zip, `${base(1)}.xml`);
    zip.writeUInt16LE(zip.readUInt16LE(record + 8) | 0x1, record + 8);
    const error = await refusal(openZipDocuments(zip));
    expect(error.code).toBe('ERROR_ZIP_ENCRYPTED');
    expect(error.message).toContain('protegido con contraseña');
  });

  it('refuses a zip without any document', async () => {
    expect((await refusal(openZipDocuments(await zipOf([])))).code).toBe('ERROR_ZIP_EMPTY');
  });
});

describe('a corrupt zip', () => {
  it('refuses bytes that are not a zip, and a truncated zip', async () => {
    expect((await refusal(openZipDocuments(randomBytes(4096)))).code).toBe('ERROR_ZIP_INVALID');
    const zip = await zipOf([[`${base(1)}.xml`, xml(base(1))]]);
    expect((await refusal(openZipDocuments(zip.subarray(0, zip.length - 30)))).code).toBe('ERROR_ZIP_INVALID');
    expect((await refusal(openZipDocuments({ path: '/nonexistent/lote.zip' }))).code).toBe('ERROR_ZIP_INVALID');
  });

  it('refuses, before any document is read, an entry that inflates past its declared size', async () => {
    const content = xml(base(2)).repeat(200);
    // The lie is in the last document: the first two are sound, and still none of them is given.
    const zip = await zipOf([
      [`${base(1)}.xml`, xml(base(1))],
      [`${base(1)}.pdf`, pdf(base(1))],
      [`${base(2)}.xml`, content],
    ]);
    const record = centralRecord(zip, `${base(2)}.xml`);
    zip.writeUInt32LE(100, record + 24);
    const open = vi.spyOn(yauzl, 'fromBufferPromise');
    const error = await refusal(openZipDocuments(zip));
    // yauzl's own guard, which ends the inflating stream at the declared size, is on.
    expect(open).toHaveBeenCalledWith(zip, expect.objectContaining({ validateEntrySizes: true }));
    expect(error.code).toBe('ERROR_ZIP_ENTRY_CORRUPT');
    expect(error.message).toBe(
      `El archivo «${base(2)}.xml» del ZIP está dañado (tiene más datos de los que declara): no se registró ningún ` +
        'comprobante del ZIP. Vuelva a generar el ZIP y cárguelo de nuevo.',
    );
  });

  it('refuses an entry shorter than it declares, or whose bytes do not match its CRC-32', async () => {
    const short = await zipOf([[`${base(1)}.xml`, xml(base(1))]]);
    short.writeUInt32LE(xml(base(1)).length + 50, centralRecord(short, `${base(1)}.xml`) + 24);
    const shortError = await refusal(openZipDocuments(short));
    expect(shortError.code).toBe('ERROR_ZIP_ENTRY_CORRUPT');
    expect(shortError.message).toMatch(/tiene menos datos de los que declara/);

    const zip = await zipOf([[`${base(1)}.xml`, xml(base(1)), { compress: false }]]);
    const at = zip.indexOf('<cbc:ID>');
    zip[at + 1] = 'X'.charCodeAt(0);
    const error = await refusal(openZipDocuments(zip));
    expect(error.code).toBe('ERROR_ZIP_ENTRY_CORRUPT');
    expect(error.message).toMatch(/su suma de control CRC-32 no coincide/);
  });

  it('refuses a broken deflate stream', async () => {
    const zip = await zipOf([[`${base(1)}.xml`, xml(base(1)).repeat(50)]]);
    // The compressed data starts after the local header (30 bytes) and the name.
    const data = 30 + `${base(1)}.xml`.length;
    zip.fill(0xff, data, data + 16);
    const error = await refusal(openZipDocuments(zip));
    expect(error.code).toBe('ERROR_ZIP_ENTRY_CORRUPT');
    expect(error.message).toMatch(
      /dañado \((sus datos comprimidos están dañados|su suma de control CRC-32 no coincide)\)/,
    );
  });
});
