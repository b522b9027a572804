import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseCdr } from '../ubl/cdr.js';
import { makeFakeReceivedFiles } from './received-files.fake.js';
import { describe, expect, it } from 'vitest';
import type { AuditStamp } from '../repositories/invoice-audit.js';
import { BadRequestError, ConflictError, withCheckDigit, type Invoice } from '@portal/shared';
import type { Caller } from '../http/caller.js';
import { IntakeRaceError, type ExistingInvoice, type IntakeStore } from '../repositories/intake-store.js';
import { makeFakeNoteLinks } from '../repositories/note-links.fake.js';
import { intakeCalls, type IntakeCalls as Intake } from './intake/intake-calls.fake.js';
import { type IncomingDocument, type IncomingFiles } from './intake/intake-deps.js';
import { storedInvoiceFixture } from './invoice.fake.js';
import { CLIENT, SUPPLIER, incomingDocumentFixture } from './intake/intake-fixtures.fake.js';

const supplier = {
  sub: 's1',
  username: 's1',
  email: 'p@demo.pe',
  firstName: 'Pía',
  lastName: 'Ramos',
  level: 'SUPPLIER',
  taxIds: [SUPPLIER],
  signIn: 'PASSWORD',
  txId: 'tx-intake-1',
} as unknown as Caller;
const admin = { sub: 'a1', email: 'a@demo.pe', level: 'ADMIN', taxIds: [] } as unknown as Caller;

const document = (change: Partial<IncomingDocument> = {}): IncomingDocument =>
  incomingDocumentFixture({ numericId: '00000123', purchaseOrders: ['4500012000'], ...change });

/** An invoice already stored under the same key, as the store reads it back. */
function storedInvoice(change: Partial<ExistingInvoice> = {}): ExistingInvoice {
  return storedInvoiceFixture({
    id: 'F001-123',
    numericId: '123',
    certStatus: 'VALID',
    supplierId: SUPPLIER,
    client: CLIENT.taxId,
    clientName: CLIENT.name,
    receivedAt: '2026-11-02T14:00:00.000Z',
    pdfUrl: 'uploads/old.pdf',
    statusHistory: [
      {
        status: 'PENDING',
        title: 'Debe revisar',
        additionalMessage: 'Comprobante recibido',
        date: '2026-11-02T14:00:00.000Z',
        by: 'p@demo.pe',
      },
    ],
    ...change,
  });
}

function setup(
  existing: ExistingInvoice | null = null,
  options: {
    failQueues?: boolean;
    failWrite?: Error;
    parseError?: Error;
    knownName?: string;
    /** Invoices stored under other keys (`{type}#{id}`): a note's original. */
    others?: Record<string, ExistingInvoice>;
    noteLinks?: ReturnType<typeof makeFakeNoteLinks>;
    /** How many writes find an item the intake read moved meanwhile. */
    races?: number;
    /** What the invoice read becomes before each of the first writes: the rejection replaced moved under it. */
    moves?: (ExistingInvoice | null)[];
    document?: Partial<IncomingDocument>;
    /** Uploads whose bytes are not an invoice's XML (a CDR), by key. */
    uploads?: Record<string, Uint8Array>;
    /** What storeReceived's checks refuse, by part. */
    refuseReceived?: Partial<Record<'xml' | 'pdf' | 'cdr', Error>>;
  } = {},
) {
  const stored: {
    invoice: Invoice;
    replacing: ExistingInvoice | null;
    audit: AuditStamp;
    alsoPut: readonly Record<string, unknown>[];
    alsoWrite: readonly Record<string, unknown>[];
    options: { readonly supplierInDirectory?: boolean } | undefined;
  }[] = [];
  const sent: unknown[] = [];
  let races = options.races ?? 0;
  let writes = 0;
  let current = existing;
  const moves = [...(options.moves ?? [])];
  let reads = 0;
  const store = {
    existing: async (_supplierId: string, type: string, id: string) => {
      reads++;
      return options.others ? (options.others[`${type}#${id}`] ?? null) : current;
    },
    create: async (
      invoice: Invoice,
      replacing: ExistingInvoice | null,
      audit: AuditStamp,
      alsoPut: readonly Record<string, unknown>[],
      alsoWrite: readonly Record<string, unknown>[] = [],
      createOptions?: { readonly supplierInDirectory?: boolean },
    ) => {
      writes++;
      if (options.failWrite) throw options.failWrite;
      if (races-- > 0) throw new IntakeRaceError();
      if (moves.length > 0) {
        current = moves.shift()!;
        throw new IntakeRaceError(true);
      }
      stored.push({ invoice, replacing, audit, alsoPut, alsoWrite, options: createOptions });
    },
  } as unknown as IntakeStore;
  // The real outbox keeps a message it cannot send for the relay; this one just drops it.
  const outgoing = {
    deliver: async (messages: readonly { body: unknown }[]) => {
      if (!options.failQueues) sent.push(...messages.map((message) => message.body));
    },
  };
  const discarded: string[] = [];
  let profileReads = 0;
  const receivedFiles = makeFakeReceivedFiles();
  const intake = intakeCalls({
    storeReceived: async (caller, sourceKey, part, file) => {
      if (options.refuseReceived?.[part]) throw options.refuseReceived[part];
      return receivedFiles.storeReceived(caller, sourceKey, part, file);
    },
    parseCdr: (bytes) => parseCdr(bytes),
    verifyUpload: async (key) => ({ key, bytes: options.uploads?.[key] ?? new TextEncoder().encode('<Invoice/>') }),
    discardUpload: async (key) => void discarded.push(key),
    parseDocument: async () => {
      if (options.parseError) throw options.parseError;
      return document(options.document);
    },
    checkInvoiceCode: (_type, prefixId) => /^F[A-Z0-9]{3}$/.test(prefixId),
    clients: { get: async (taxId) => (taxId === CLIENT.taxId ? CLIENT : null) },
    profiles: {
      getMany: async (rucs) => {
        profileReads++;
        return new Map(options.knownName ? rucs.map((taxId) => [taxId, { taxId, name: options.knownName! }]) : []);
      },
    },
    store,
    noteLinks: options.noteLinks ?? makeFakeNoteLinks(),
    outgoing,
    clock: () => new Date('2026-11-20T15:00:00.000Z'),
  });
  const form = (change: Record<string, unknown> = {}) =>
    ({
      prefixId: 'F001',
      numericId: '123',
      type: 'FACTURA',
      clientTaxId: CLIENT.taxId,
      supplierTaxId: SUPPLIER,
      supplierName: 'Servicios Industriales Lima S.A.C.',
      currency: 'PEN',
      amount: 118,
      taxAmount: 18,
      issueDate: '2026-11-10',
      pdfUrl: 'uploads/x.pdf',
      ...change,
    }) as never;
  return {
    intake,
    stored,
    sent,
    form,
    discarded,
    writes: () => writes,
    reads: () => reads,
    profileReads: () => profileReads,
    receivedFiles,
  };
}

describe('document intake', () => {
  it('stores a received XML invoice PENDING, queues SUNAT validation and tells the people concerned', async () => {
    const { intake, stored, sent } = setup();
    const invoice = await intake.fromXml(supplier, { url: 'uploads/f.xml' });
    expect(invoice).toMatchObject({
      id: 'F001-123',
      numericId: '123',
      status: 'PENDING',
      certStatus: 'PENDING',
      xmlUrl: 'uploads/f.xml',
      clientName: CLIENT.name,
      purchaseOrders: ['4500012000'],
    });
    expect(invoice.statusHistory).toEqual([
      {
        status: 'PENDING',
        title: 'Debe revisar',
        additionalMessage: 'Comprobante recibido',
        date: '2026-11-20T15:00:00.000Z',
        by: 'p@demo.pe',
      },
    ]);
    expect(stored).toHaveLength(1);
    expect(sent).toEqual([
      { supplierId: SUPPLIER, invoiceType: 'FACTURA', invoiceId: 'F001-123' },
      expect.objectContaining({ event: 'INVOICE_RECEIVED', invoiceId: 'F001-123', client: CLIENT.taxId }),
    ]);
    // 'Cargar XML' has no answer of its own: the supplier's users are e-mailed the receipt.
    expect(sent[1]).not.toHaveProperty('channel');
  });

  it('names the supplier as the directory knows its RUC, whatever the form says', async () => {
    const known = setup(null, { knownName: 'Servicios Industriales Lima S.A.C.' });
    const invoice = await known.intake.withoutXml(supplier, known.form({ supplierName: 'Otra Empresa S.A.' }));
    expect(invoice.supplierName).toBe('Servicios Industriales Lima S.A.C.');
    const unnamed = await known.intake.withoutXml(supplier, known.form({ supplierName: undefined, numericId: '124' }));
    expect(unnamed.supplierName).toBe('Servicios Industriales Lima S.A.C.');
    // The directory has it: the store leaves its profile alone (no write for a profile already there).
    expect(known.stored.map((entry) => entry.options?.supplierInDirectory)).toEqual([true, true]);

    // A RUC the directory does not know yet is named by the form, which must then say it.
    const unknown = setup();
    await expect(unknown.intake.withoutXml(supplier, unknown.form({ supplierName: undefined }))).rejects.toMatchObject({
      statusCode: 400,
      code: 'ERROR_MISSING_PARAMETER',
    });
    expect(unknown.stored).toEqual([]);
    expect(
      (await unknown.intake.withoutXml(supplier, unknown.form({ supplierName: 'Nueva S.A.C.' }))).supplierName,
    ).toBe('Nueva S.A.C.');
    // Not in the directory yet: the store writes its profile with the invoice.
    expect(unknown.stored.at(-1)!.options?.supplierInDirectory).toBe(false);
  });

  it('refuses a document of another supplier, except for an admin', async () => {
    const other = withCheckDigit('2060817235');
    const { intake, form } = setup();
    await expect(intake.withoutXml(supplier, form({ supplierTaxId: other }))).rejects.toMatchObject({
      statusCode: 403,
      code: 'ERROR_INVOICE_SUPPLIER_NOT_CALLER',
    });
    await expect(intake.withoutXml(admin, form({ supplierTaxId: other }))).resolves.toMatchObject({
      supplierId: other,
    });
  });

  it.each([
    [{ supplierTaxId: '20456178326' }, 'ERROR_INVALID_RUC'],
    [{ clientTaxId: withCheckDigit('2099999999') }, 'ERROR_CLIENT_NOT_FOUND'],
    [{ prefixId: 'X001' }, 'ERROR_INVOICE_ID_WITH_INVALID_FORMAT'],
    [{ taxAmount: 500 }, 'ERROR_INVALID_PARAMETER'],
  ])('refuses %o with %s and stores nothing', async (change, code) => {
    const { intake, stored, sent, form } = setup();
    await expect(intake.withoutXml(supplier, form(change))).rejects.toMatchObject({ code });
    expect(stored).toEqual([]);
    expect(sent).toEqual([]);
  });

  it('refuses a duplicate, comparing correlatives as integers', async () => {
    const { intake, stored, form } = setup(storedInvoice());
    await expect(intake.withoutXml(supplier, form({ numericId: '0123' }))).rejects.toMatchObject({
      statusCode: 409,
      code: 'ERROR_INVOICE_ALREADY_EXISTS',
    });
    expect(stored).toEqual([]);
  });

  it('lets the supplier send again a document rejected with retry allowed, and only then', async () => {
    const rejected = storedInvoice({
      status: 'REJECTED',
      disapprovedWithoutRejection: true,
      version: 3,
      operationType: 'SERVICES',
      issuedAt: '2026-10-01',
      statusHistory: [
        ...storedInvoice().statusHistory,
        {
          status: 'REJECTED',
          title: 'Rechazado',
          additionalMessage: 'Falta la orden de compra.',
          date: '2026-11-03T16:00:00.000Z',
          by: 'gestor@demo.pe',
        },
      ],
    });
    const { intake, stored, form } = setup(rejected);
    const again = await intake.withoutXml(supplier, form());
    expect(stored[0]!.replacing).toBe(rejected);
    // Its audit record, written with it, names the resubmission, who made it and from which call.
    expect(stored[0]!.audit).toMatchObject({
      action: 'RESUBMITTED',
      actor: { name: 'Pía Ramos', role: 'SUPPLIER', signIn: 'PASSWORD', email: 'p@demo.pe' },
      txId: 'tx-intake-1',
    });
    // The same history goes on: the first registration and the rejection with its reason stay.
    expect(again.statusHistory).toEqual([
      ...rejected.statusHistory,
      {
        status: 'PENDING',
        title: 'Debe revisar',
        additionalMessage: 'Comprobante enviado nuevamente tras el rechazo',
        date: '2026-11-20T15:00:00.000Z',
        by: 'p@demo.pe',
      },
    ]);
    expect(again.receivedAt).toBe('2026-11-20T15:00:00.000Z');
    const definitive = setup(storedInvoice({ ...rejected, disapprovedWithoutRejection: false }));
    await expect(definitive.intake.withoutXml(supplier, definitive.form())).rejects.toMatchObject({
      code: 'ERROR_INVOICE_ALREADY_EXISTS',
    });
  });

  it('reads a rejection again when it moved before the resubmission was written, and replaces it still', async () => {
    // Prepare: SUNAT's answer on the first submission lands on the rejection between its read and the write
    const rejected = storedInvoice({ status: 'REJECTED', disapprovedWithoutRejection: true, version: 3 });
    const answered = { ...rejected, certStatus: 'VALID', version: 4 } as ExistingInvoice;
    const { intake, stored, form, writes, reads } = setup(rejected, { moves: [answered] });

    // Act
    const again = await intake.withoutXml(supplier, form());

    // Assess: stored once, replacing the rejection as it is now
    expect(again.status).toBe('PENDING');
    expect(stored).toHaveLength(1);
    expect(stored[0]!.replacing).toBe(answered);
    expect({ writes: writes(), reads: reads() }).toEqual({ writes: 2, reads: 2 });
  });

  it('refuses the resubmission as a duplicate when another one replaced the rejection first', async () => {
    const rejected = storedInvoice({ status: 'REJECTED', disapprovedWithoutRejection: true, version: 3 });
    const resubmitted = storedInvoice({ status: 'PENDING', version: 4 });
    const { intake, stored, form } = setup(rejected, { moves: [resubmitted] });
    await expect(intake.withoutXml(supplier, form())).rejects.toMatchObject({
      statusCode: 409,
      code: 'ERROR_INVOICE_ALREADY_EXISTS',
    });
    expect(stored).toEqual([]);
  });

  it('gives up with a conflict when the rejection keeps moving', async () => {
    const rejected = storedInvoice({ status: 'REJECTED', disapprovedWithoutRejection: true, version: 3 });
    const moves = Array.from({ length: 5 }, (_, i) => ({ ...rejected, version: 4 + i }) as ExistingInvoice);
    const { intake, stored, form } = setup(rejected, { moves });
    await expect(intake.withoutXml(supplier, form())).rejects.toMatchObject({
      statusCode: 409,
      code: 'ERROR_INVOICE_CHANGED_CONCURRENTLY',
    });
    expect(stored).toEqual([]);
  });

  it('commits the SUNAT request and the notification with the invoice, so that a failed send loses nothing', async () => {
    const { intake, stored, sent, form } = setup(null, { failQueues: true });
    await expect(intake.withoutXml(supplier, form())).resolves.toMatchObject({ status: 'PENDING' });
    expect(sent).toEqual([]);
    expect(stored[0]!.alsoPut.map((item) => item.queue)).toEqual(['sunatValidation', 'notifications', undefined]);
    expect(JSON.parse(String(stored[0]!.alsoPut[0]!.body))).toEqual({
      supplierId: SUPPLIER,
      invoiceType: 'FACTURA',
      invoiceId: 'F001-123',
    });
  });

  it('deletes the upload of every refused submission, whatever the reason', async () => {
    const duplicate = { status: 'PENDING', disapprovedWithoutRejection: false, version: 1 } as ExistingInvoice;
    const { form } = setup();
    const attempts = [
      ['RUC', setup(), (i: Intake) => i.withoutXml(supplier, form({ supplierTaxId: '20456178326' }))],
      ['company', setup(), (i: Intake) => i.withoutXml(supplier, form({ clientTaxId: withCheckDigit('2099999999') }))],
      [
        'supplier',
        setup(),
        (i: Intake) => i.withoutXml(supplier, form({ supplierTaxId: withCheckDigit('2060817235') })),
      ],
      ['duplicate', setup(duplicate), (i: Intake) => i.fromXml(supplier, { url: 'uploads/dup.xml' })],
      [
        'unreadable XML',
        setup(null, { parseError: new BadRequestError('ERROR_XML_MISSING_FIELD', { field: 'cbc:ID' }) }),
        (i: Intake) => i.fromXml(supplier, { url: 'uploads/broken.xml' }),
      ],
    ] as const;

    for (const [reason, { intake, discarded, stored }, attempt] of attempts) {
      await expect(attempt(intake), reason).rejects.toBeInstanceOf(Error);
      expect({ reason, discarded: discarded.length, stored: stored.length }).toEqual({
        reason,
        discarded: 1,
        stored: 0,
      });
    }
  });

  it('keeps the upload when the write itself fails: the same submission may be retried, or be the one stored', async () => {
    const raced = setup(null, { failWrite: new ConflictError('ERROR_INVOICE_ALREADY_EXISTS') });
    const broken = setup(null, { failWrite: new Error('DynamoDB unavailable') });

    await expect(raced.intake.withoutXml(supplier, raced.form())).rejects.toMatchObject({ statusCode: 409 });
    await expect(broken.intake.withoutXml(supplier, broken.form())).rejects.toThrow('DynamoDB unavailable');
    expect([...raced.discarded, ...broken.discarded]).toEqual([]);
  });

  it('records with the invoice that it uses its file, so that no later refusal deletes it', async () => {
    const { intake, stored } = setup();
    await intake.fromXml(supplier, { url: 'uploads/f.xml' });
    expect(stored[0]!.alsoPut.filter((item) => String(item.pk).startsWith('UPLOAD#'))).toEqual([
      {
        pk: 'UPLOAD#uploads/f.xml',
        sk: `USE#INVOICE#${SUPPLIER}#FACTURA#F001-123`,
        objectKey: 'uploads/f.xml',
        invoiceKey: `INVOICE#${SUPPLIER}#FACTURA#F001-123`,
        usedAt: '2026-11-20T15:00:00.000Z',
      },
    ]);
  });
});

describe('the intake of notes and their originals (a note adjusts its original)', () => {
  const creditNote: Partial<IncomingDocument> = {
    type: 'NOTA_DE_CREDITO',
    prefixId: 'FC01',
    numericId: '5',
    amount: 11.8,
    taxAmount: 1.8,
    purchaseOrders: [],
    billingReference: { prefixId: 'F001', numericId: '00000009', typeCode: '01' },
    noteReason: { code: '04', description: 'Descuento por volumen' },
  };
  const original = storedInvoice({ id: 'F001-9', numericId: '9', purchaseOrders: ['4500012000'], version: 4 });
  const linkedNote = (status: Invoice['status'], id: string) =>
    storedInvoice({
      type: 'NOTA_DE_CREDITO',
      id,
      prefixId: 'FC01',
      numericId: id.slice(5),
      status,
      amount: 11.8,
      taxAmount: 1.8,
      originalInPortal: true,
    });

  it("links a note to its original in the same write, taking the original's orders", async () => {
    const { intake, stored } = setup(null, { document: creditNote, others: { 'FACTURA#F001-9': original } });
    const note = await intake.fromXml(supplier, { url: 'uploads/nc.xml' });
    expect(note).toMatchObject({
      billingReference: { type: 'FACTURA', prefixId: 'F001', numericId: '9', id: 'F001-9' },
      noteReason: { code: '04', label: 'Descuento global', description: 'Descuento por volumen' },
      originalInPortal: true,
      purchaseOrders: ['4500012000'],
    });
    const writes = JSON.stringify(stored[0]!.alsoWrite);
    expect(writes).toContain(`NOTES#${SUPPLIER}#FACTURA#F001-9`);
    // The original is written again, as read (version 4), so that no write of it read before the note loses it.
    expect(writes).toContain(`INVOICE#${SUPPLIER}#FACTURA#F001-9`);
    expect(writes).toContain('#version = :version');
  });

  it('refuses one note too many for an original, deleting its upload', async () => {
    const notes = Array.from({ length: 20 }, (_, i) => linkedNote('PENDING', `FC01-${100 + i}`));
    const { intake, stored, discarded } = setup(null, {
      document: creditNote,
      others: { 'FACTURA#F001-9': original },
      noteLinks: makeFakeNoteLinks({ notes: { [`NOTES#${SUPPLIER}#FACTURA#F001-9`]: notes } }),
    });
    const error = await intake.fromXml(supplier, { url: 'uploads/nc.xml' }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).code).toBe('ERROR_NOTE_TOO_MANY_FOR_ORIGINAL');
    expect((error as BadRequestError).message).toBe(
      'El comprobante F001-9 ya tiene 20 notas registradas, el máximo del portal.',
    );
    expect(stored).toEqual([]);
    expect(discarded).toEqual(['uploads/nc.xml']);
  });

  it('starts an original arriving after its notes with the accepted ones deducted, and links them', async () => {
    const notes = [linkedNote('ACCEPTED', 'FC01-100'), linkedNote('PENDING', 'FC01-101')];
    const { intake, stored } = setup(null, {
      document: { numericId: '9', amount: 118, taxAmount: 18 },
      others: {},
      noteLinks: makeFakeNoteLinks({ notes: { [`NOTES#${SUPPLIER}#FACTURA#F001-9`]: notes } }),
    });
    const invoice = await intake.fromXml(supplier, { url: 'uploads/f.xml' });
    expect(invoice).toMatchObject({ amountToPay: 106.2, noteAdjustments: { credited: 11.8, debited: 0 } });
    const writes = JSON.stringify(stored[0]!.alsoWrite);
    expect(writes).toContain(`INVOICE#${SUPPLIER}#NOTA_DE_CREDITO#FC01-100`);
    expect(writes).toContain(`INVOICE#${SUPPLIER}#NOTA_DE_CREDITO#FC01-101`);
  });

  it('reads again when an item it read moved before its write, and gives up after five tries', async () => {
    const once = setup(null, { document: creditNote, others: {}, races: 1 });
    await once.intake.fromXml(supplier, { url: 'uploads/nc.xml' });
    expect(once.writes()).toBe(2);
    expect(once.stored).toHaveLength(1);

    const always = setup(null, { document: creditNote, others: {}, races: 99 });
    const error = await always.intake.fromXml(supplier, { url: 'uploads/nc.xml' }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).code).toBe('ERROR_INVOICE_CHANGED_CONCURRENTLY');
    expect(always.writes()).toBe(5);
    expect(always.stored).toEqual([]);
  });
});

describe('documents that arrive as files: a zip, an e-mail (the same checks as Cargar XML)', () => {
  const CDR_FIXTURES = path.resolve(import.meta.dirname, '../../../tests/fixtures/cdr');
  const cdrFile = (name: string, edit: (xml: string) => string = (xml) => xml) => ({
    name,
    bytes: new TextEncoder().encode(edit(readFileSync(path.join(CDR_FIXTURES, name), 'utf8'))),
  });
  const ACCEPTED_CDR = 'R-20456178325-01-F001-00000458.xml';
  // The factura the accepted CDR answers.
  const answered = { prefixId: 'F001', numericId: '00000458' };
  const files = (change: Partial<IncomingFiles> = {}): IncomingFiles => ({
    sourceKey: 'zip/b1/F001-458',
    channel: 'ZIP',
    xml: { name: 'F001-458.xml', bytes: new TextEncoder().encode('<Invoice/>') },
    pdf: { name: 'F001-458.pdf', bytes: new TextEncoder().encode('%PDF-1.7') },
    ...change,
  });

  it('stores the document with its PDF and keeps SUNAT’s CDR as the supplier’s evidence', async () => {
    const { intake, stored, sent } = setup(null, { document: answered });
    const result = await intake.fromFiles(supplier, files({ cdr: cdrFile(ACCEPTED_CDR) }));

    expect(result).toMatchObject({ outcome: 'ACCEPTED', cdrWarning: null });
    const invoice = stored[0]!.invoice;
    expect(invoice.xmlUrl).toMatch(/F001-458-xml\.xml$/);
    expect(invoice.pdfUrl).toMatch(/F001-458-pdf\.pdf$/);
    expect(invoice.supplierCdr).toMatchObject({
      responseCode: '0',
      verdict: 'ACCEPTED',
      description: 'La Factura numero F001-00000458, ha sido aceptada',
      fileKey: expect.stringMatching(/F001-458-cdr\.xml$/),
      contradiction: null,
    });
    expect(invoice.certStatus).toBe('PENDING');
    expect(sent.map((message) => (message as { event?: string }).event)).not.toContain('CDR_CONTRADICTION');
    // Its receipt names the channel, whose own answer tells the supplier (the notifications e-mail only the staff).
    expect(sent).toContainEqual(expect.objectContaining({ event: 'INVOICE_RECEIVED', channel: 'ZIP' }));
  });

  it('says which channel brought a document received by e-mail', async () => {
    const { intake, sent } = setup(null, { document: answered });
    await intake.fromFiles(supplier, files({ channel: 'EMAIL', sourceKey: 'mail/m1/F001-458' }));
    expect(sent).toContainEqual(expect.objectContaining({ event: 'INVOICE_RECEIVED', channel: 'EMAIL' }));
    // So does its SUNAT check, whose confirmation the e-mail's one answer covers too.
    expect(sent).toContainEqual({
      supplierId: supplier.taxIds[0],
      invoiceType: 'FACTURA',
      invoiceId: 'F001-458',
      channel: 'EMAIL',
    });
  });

  it('takes the document without a CDR it cannot trust, and says why', async () => {
    const { intake, stored } = setup(null, { document: answered });
    const result = await intake.fromFiles(supplier, files({ cdr: cdrFile('R-20456178325-01-F002-00001203-ose.xml') }));

    expect(result.outcome).toBe('ACCEPTED');
    expect(result.outcome === 'ACCEPTED' && result.cdrWarning).toMatch(
      /^La constancia de recepción \(CDR\) no se adjuntó al comprobante: .+SUNAT lo validará\.$/,
    );
    expect(stored[0]!.invoice.supplierCdr).toBeUndefined();
  });

  it('does not keep the CDR of another document', async () => {
    const { intake, stored } = setup(null, { document: { prefixId: 'F001', numericId: '00000999' } });
    const result = await intake.fromFiles(supplier, files({ cdr: cdrFile(ACCEPTED_CDR) }));

    expect(result.outcome === 'ACCEPTED' && result.cdrWarning).toContain('F001-00000458');
    expect(stored[0]!.invoice.supplierCdr).toBeUndefined();
  });

  it('flags to staff a CDR issued to another acquirer, and keeps it', async () => {
    const { intake, stored, sent } = setup(null, { document: answered });
    const acquirer = withCheckDigit('2060123456');
    const other = cdrFile(ACCEPTED_CDR, (xml) => xml.replace('6-20100070970', `6-${acquirer}`));
    await intake.fromFiles(supplier, files({ cdr: other }));

    expect(stored[0]!.invoice.supplierCdr?.contradiction?.reasons.map((reason) => reason.kind)).toEqual([
      'OTHER_CUSTOMER',
    ]);
    expect(sent).toContainEqual(
      expect.objectContaining({ event: 'CDR_CONTRADICTION', detail: expect.stringContaining(`RUC ${acquirer}`) }),
    );
  });

  it('answers a refusal as an outcome and deletes the files it stored', async () => {
    const { intake, stored, discarded } = setup(null, { document: { supplier: { taxId: '20100070970', name: 'X' } } });
    const result = await intake.fromFiles(supplier, files());

    expect(result).toEqual({
      outcome: 'REFUSED',
      code: 'ERROR_INVOICE_SUPPLIER_NOT_CALLER',
      message: expect.stringContaining('20100070970'),
    });
    expect(stored).toEqual([]);
    expect(discarded).toEqual([expect.stringMatching(/-xml\.xml$/), expect.stringMatching(/-pdf\.pdf$/)]);
  });

  it('reports a document sent before as existing, but finds its own invoice again on a retry', async () => {
    const before = setup(storedInvoice({ xmlUrl: 'uploads/x/2026/10/other.xml' }));
    expect(await before.intake.fromFiles(supplier, files())).toMatchObject({
      outcome: 'ALREADY_EXISTS',
      invoiceId: 'F001-123',
      code: 'ERROR_INVOICE_ALREADY_EXISTS',
    });
    expect(before.discarded).toHaveLength(2);

    // The first attempt stored the invoice, then the worker died before recording it: the same source again.
    const own = storedInvoice({ xmlUrl: `uploads/admin/2026/10/${encodeURIComponent('zip/b1/F001-458')}-xml.xml` });
    const retry = setup(own);
    expect(await retry.intake.fromFiles(supplier, files())).toMatchObject({ outcome: 'ACCEPTED', invoice: own });
    expect(retry.stored).toEqual([]);
  });

  it('refuses a document whose file fails the upload checks, and deletes the other file it stored', async () => {
    const mismatch = new BadRequestError('ERROR_UPLOAD_CONTENT_MISMATCH', { expected: 'PDF' });
    const { intake, stored, discarded } = setup(null, { refuseReceived: { pdf: mismatch } });
    const result = await intake.fromFiles(supplier, files());

    expect(result).toEqual({ outcome: 'REFUSED', code: 'ERROR_UPLOAD_CONTENT_MISMATCH', message: mismatch.message });
    expect(stored).toEqual([]);
    expect(discarded).toEqual([expect.stringMatching(/-xml\.xml$/)]);
  });

  it('takes the document without its CDR when the CDR fails the upload checks, and says why', async () => {
    const tooLarge = new BadRequestError('ERROR_UPLOAD_TOO_LARGE', { maxBytes: 1, maxSize: '1 MB' });
    const { intake, stored } = setup(null, { document: answered, refuseReceived: { cdr: tooLarge } });
    const result = await intake.fromFiles(supplier, files({ cdr: cdrFile(ACCEPTED_CDR) }));

    expect(result.outcome === 'ACCEPTED' && result.cdrWarning).toMatch(/^La constancia de recepción \(CDR\) no se/);
    expect(stored[0]!.invoice.supplierCdr).toBeUndefined();
  });

  it('reads the supplier directory once for a whole batch, and again for the next one', async () => {
    const { intake, stored, profileReads } = setup(null, { knownName: 'Servicios Industriales Lima S.A.C.' });
    const batch = intake.forBatch();
    for (const n of [1, 2, 3]) {
      const result = await batch.fromFiles(supplier, files({ sourceKey: `zip/b1/F001-${n}` }));
      expect(result.outcome).toBe('ACCEPTED');
    }
    expect(profileReads()).toBe(1);
    expect(stored).toHaveLength(3);

    await intake.forBatch().fromFiles(supplier, files({ sourceKey: 'zip/b2/F001-4' }));
    expect(profileReads()).toBe(2);
  });

  it('throws what it cannot decide (the store down), so the message is retried', async () => {
    const { intake } = setup(null, { failWrite: new Error('DynamoDB unavailable') });
    await expect(intake.fromFiles(supplier, files())).rejects.toThrow('DynamoDB unavailable');
  });

  describe('a CDR added to «Cargar XML»', () => {
    it('keeps it with the invoice as its file', async () => {
      const cdr = cdrFile(ACCEPTED_CDR);
      const { intake, stored } = setup(null, { document: answered, uploads: { 'uploads/r.xml': cdr.bytes } });
      await intake.fromXml(supplier, { url: 'uploads/f.xml', cdrUrl: 'uploads/r.xml' });

      expect(stored[0]!.invoice.supplierCdr).toMatchObject({ verdict: 'ACCEPTED', fileKey: 'uploads/r.xml' });
      // Recorded as used by the invoice, like its XML: a later refusal of the same key leaves it alone.
      expect(stored[0]!.alsoPut.map((item) => item.objectKey)).toEqual(
        expect.arrayContaining(['uploads/f.xml', 'uploads/r.xml']),
      );
    });

    it('refuses the submission for the CDR of another document, deleting both uploads', async () => {
      const cdr = cdrFile(ACCEPTED_CDR);
      const { intake, stored, discarded } = setup(null, { uploads: { 'uploads/r.xml': cdr.bytes } });
      const error = await intake.fromXml(supplier, { url: 'uploads/f.xml', cdrUrl: 'uploads/r.xml' }).catch((e) => e);

      expect(error).toBeInstanceOf(BadRequestError);
      expect((error as BadRequestError).code).toBe('ERROR_CDR_OTHER_DOCUMENT');
      expect(stored).toEqual([]);
      expect(discarded).toEqual(['uploads/f.xml', 'uploads/r.xml']);
    });
  });
});
