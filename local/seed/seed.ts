import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { BatchWriteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  emptySapPostingCounts,
  sapPostingCountsKey,
  employeeWordItems,
  invoiceCounterDeltas,
  invoiceSearchItems,
  keys,
  parseTaxIds,
  type Invoice,
} from '@portal/shared';
import { DEMO_PARTIES, buildWorld, type DemoParties } from './seed-data.js';

/**
 * Says the data is there, and of which shape: v5 orders invoices by reception, indexes them for search and gives
 * the invoices waiting for SUNAT their SUNAT check; the demo staff are of the group's corporate domain
 * (@grupoandino.pe). v6: notes linked to their originals, the NO HABIDO supplier, every
 * invoice's payment (cuotas, detracción, retención, expected payment date) and the paid ones' remittance.
 */
const SEED_MARKER = { pk: 'SEED', sk: 'v7' };
/**
 * Markers of data this code cannot read (invoices without `receivedAt`, search items or counts; notes unlinked, no
 * payment; HES and MIGO not indexed by purchase order for the suggestions).
 */
const OLDER_MARKERS = ['v1', 'v2', 'v3', 'v4', 'v5', 'v6'];

/**
 * The state items of the data migrations the stage runs at its start, marked done: a table seeded by this version
 * holds list entries (ADR 0042) and search items of one item per token (ADR 0045), so they have nothing to do.
 */
export function migrationsDone(now: Date): Record<string, unknown>[] {
  return [keys.invoiceListsMigration, keys.searchItemsMigration].map((key) => ({
    ...key,
    startKey: null,
    migrated: 0,
    doneAt: now.toISOString(),
  }));
}

/** The local data directory holds data of an earlier shape: the stage refuses it rather than misread it. */
export class OutdatedLocalDataError extends Error {
  constructor(marker: string) {
    super(
      `Los datos locales son de una versión anterior del portal (${marker}): ejecute 'npm run reset' para ` +
        'empezar con los datos de demostración actuales.',
    );
  }
}

type Item = Record<string, unknown>;

/** Batches of 25 (BatchWriteItem's most), this many in flight at once. */
const SEED_BATCHES_IN_FLIGHT = 8;

async function writeAll(db: DynamoDBDocumentClient, table: string, items: Item[]): Promise<void> {
  const batches: Item[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  const writeBatch = async (batch: Item[]) => {
    let pending = batch.map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 8) throw new Error('DynamoDB Local no aceptó los datos de demostración');
      const result = await db.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
      pending = (result.UnprocessedItems?.[table] ?? []) as typeof pending;
      if (pending.length) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
    }
  };
  let next = 0;
  const lane = async () => {
    while (next < batches.length) await writeBatch(batches[next++]!);
  };
  await Promise.all(Array.from({ length: SEED_BATCHES_IN_FLIGHT }, lane));
}

/**
 * The items of a world (the demo's unless `parties` names a test tenant's), keyed through the shared key builders as
 * the repositories read them. `usernames` maps each provisioned demo account's e-mail to its user-pool Username (the
 * API's userId).
 */
export function seedItems(usernames: Readonly<Record<string, string>>, parties: DemoParties = DEMO_PARTIES): Item[] {
  const world = buildWorld(undefined, parties);
  const items: Item[] = [];
  for (const client of parties.clients) items.push({ ...keys.client(client.taxId), ...client });
  for (const supplier of [...parties.suppliers, parties.noHabidoSupplier]) {
    items.push({ ...keys.supplier(supplier.taxId), ...keys.supplierIndexes(supplier), ...supplier });
  }
  for (const [taxId, offices] of Object.entries(parties.officeLocations)) {
    for (const office of offices) items.push({ ...keys.officeLocation(taxId, office.id), ...office });
  }
  for (const [acquirer, employees] of Object.entries(parties.employees)) {
    for (const employee of employees) {
      items.push({ ...keys.employee(acquirer, employee.id), ...employee, active: true });
      items.push(...employeeWordItems(acquirer, { ...employee, active: true }));
    }
  }
  for (const order of world.purchaseOrders)
    items.push({ ...keys.purchaseOrder(order.acquirerTaxId, order.id), ...order });
  for (const { kind, ...doc } of world.conformityDocuments) {
    items.push({
      ...keys.conformity(kind, doc.acquirerTaxId, doc.documentId),
      ...keys.conformityIndexes(kind, doc),
      kind,
      ...doc,
    });
  }
  // The accounts of each RUC and who gets e-mail; Cognito stays the source of truth for accounts.
  for (const user of parties.users) {
    const userId = usernames[user.username];
    if (!userId) continue;
    for (const taxId of parseTaxIds(user.taxId)) {
      items.push({
        ...keys.recipient(taxId, userId),
        userId,
        email: user.username,
        canReceiveEmails: user.receivesEmails,
      });
    }
  }
  for (const invoice of world.invoices) {
    items.push(
      { ...keys.invoice(invoice.supplierId, invoice.type, invoice.id), ...invoice, version: 1 },
      ...keys.invoiceListEntries(invoice),
    );
    // Seeded as if received with its SUNAT message lost: its SUNAT check (functions/src/repositories/sunat-checks.ts)
    // is due at once, so the outbox sweeper asks SUNAT. Built here from the shared keys, as every seeded item is:
    // the stage loads this module before it sets the functions' environment, so it imports no function code.
    if (invoice.certStatus === 'PENDING') {
      const check = keys.sunatCheck(invoice.supplierId, invoice.type, invoice.id);
      items.push({
        ...check,
        ...keys.sunatCheckIndexes(check.pk, invoice.receivedAt),
        state: 'OPEN',
        supplierId: invoice.supplierId,
        invoiceType: invoice.type,
        invoiceId: invoice.id,
        client: invoice.client,
        pendingSince: invoice.receivedAt,
        dueAt: invoice.receivedAt,
        outgoingId: null,
        redrives: 0,
        requestedBy: null,
        requestedAt: null,
        lastFailureAt: null,
        lastError: null,
      });
    }
    items.push(...invoiceSearchItems(invoice));
  }
  // Each note under its original's key, and the head whose version counts the notes linked (a note's original counts its notes).
  const heads = new Map<string, number>();
  for (const note of world.invoices) {
    const reference = note.billingReference;
    if (!reference) continue;
    const original = { supplierId: note.supplierId, type: reference.type, id: reference.id };
    items.push({
      ...keys.originalNote(original, note),
      supplierId: note.supplierId,
      noteType: note.type,
      noteId: note.id,
      receivedAt: note.receivedAt,
    });
    const head = keys.originalNotesHead(original.supplierId, original.type, original.id);
    heads.set(head.pk, (heads.get(head.pk) ?? 0) + 1);
  }
  for (const [pk, version] of heads) items.push({ pk, sk: 'HEAD', version });
  // Every counter as the invoices' transactions would have left it.
  const counters = invoiceCounterDeltas(world.invoices.map((invoice) => ({ before: null, after: invoice }))).map(
    ({ key, delta }) => ({ ...key, ...delta }),
  );
  // No MIRO record yet: each company's SAP posting counts (on its all-time counters, ADR 0043) start exact, and
  // every move keeps them so.
  for (const client of parties.clients) {
    const key = sapPostingCountsKey(client.taxId);
    const counter = counters.find((item) => item.pk === key.pk && item.sk === key.sk);
    if (counter) Object.assign(counter, emptySapPostingCounts());
    else counters.push({ ...key, ...emptySapPostingCounts() });
  }
  items.push(...counters);
  return items;
}

/**
 * Seeds once: a marker item, written last with a condition, says the data is there. `worlds`: the demo's, then each
 * test tenant's (a test stage's).
 */
export async function seedIfEmpty(
  db: DynamoDBDocumentClient,
  table: string,
  usernames: Readonly<Record<string, string>>,
  worlds: readonly DemoParties[] = [DEMO_PARTIES],
): Promise<boolean> {
  for (const older of OLDER_MARKERS) {
    const found = await db.send(new GetCommand({ TableName: table, Key: { pk: SEED_MARKER.pk, sk: older } }));
    if (found.Item) throw new OutdatedLocalDataError(older);
  }
  const marker = await db.send(new GetCommand({ TableName: table, Key: SEED_MARKER }));
  if (marker.Item) return false;
  await writeAll(db, table, [
    ...worlds.flatMap((parties) => seedItems(usernames, parties)),
    ...migrationsDone(new Date()),
  ]);
  await db
    .send(
      new PutCommand({
        TableName: table,
        Item: { ...SEED_MARKER, seededAt: new Date().toISOString() },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    )
    .catch((error: Error) => {
      if (error.name !== 'ConditionalCheckFailedException') throw error;
    });
  return true;
}

/**
 * A one-page PDF that any reader opens: Helvetica text, one line per entry (WinAnsi, so Spanish
 * accents print), with a cross-reference table whose offsets are computed, not guessed.
 */
export function minimalPdf(lines: readonly string[]): Buffer {
  const text = (line: string) => `(${line.replace(/[\\()]/g, (char) => `\\${char}`)}) Tj T*`;
  const content = ['BT', '/F1 12 Tf', '16 TL', '72 770 Td', ...lines.map(text), 'ET'].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
  ];
  let body = '%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

const xmlText = (value: string | number) => String(value).replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);

/** SUNAT catalogue 01 codes and the UBL 2.1 root of each seeded document type. */
const UBL_DOCUMENTS: Partial<Record<Invoice['type'], { root: string; code: string }>> = {
  FACTURA: { root: 'Invoice', code: '01' },
  BOLETA: { root: 'Invoice', code: '03' },
  NOTA_DE_CREDITO: { root: 'CreditNote', code: '07' },
  NOTA_DE_DEBITO: { root: 'DebitNote', code: '08' },
};

/** A note's reason and original (cac:DiscrepancyResponse, cac:BillingReference), as SUNAT's UBL 2.1 guides place them. */
function noteReferenceXml(invoice: Invoice): string[] {
  const reference = invoice.billingReference;
  if (!reference) return [];
  return [
    '  <cac:DiscrepancyResponse>',
    `    <cbc:ReferenceID>${xmlText(reference.id)}</cbc:ReferenceID>`,
    `    <cbc:ResponseCode>${xmlText(invoice.noteReason?.code ?? '')}</cbc:ResponseCode>`,
    `    <cbc:Description>${xmlText(invoice.noteReason?.description ?? invoice.noteReason?.label ?? '')}</cbc:Description>`,
    '  </cac:DiscrepancyResponse>',
    '  <cac:BillingReference><cac:InvoiceDocumentReference>',
    `    <cbc:ID>${xmlText(reference.id)}</cbc:ID>`,
    `    <cbc:DocumentTypeCode>${reference.type === 'BOLETA' ? '03' : '01'}</cbc:DocumentTypeCode>`,
    '  </cac:InvoiceDocumentReference></cac:BillingReference>',
  ];
}

/** A small UBL 2.1 document with the invoice's parties and totals (unsigned: demo data). */
export function ublXml(invoice: Invoice): string {
  const { root, code } = UBL_DOCUMENTS[invoice.type] ?? { root: 'Invoice', code: '01' };
  const money = (amount: number) => `currencyID="${invoice.currency}">${amount.toFixed(2)}`;
  const party = (taxId: string, name: string) =>
    [
      '<cac:Party><cac:PartyTaxScheme>',
      `<cbc:RegistrationName>${xmlText(name)}</cbc:RegistrationName>`,
      `<cbc:CompanyID schemeID="6">${taxId}</cbc:CompanyID>`,
      '</cac:PartyTaxScheme></cac:Party>',
    ].join('');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<${root} xmlns="urn:oasis:names:specification:ubl:schema:xsd:${root}-2"`,
    '  xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"',
    '  xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">',
    '  <cbc:UBLVersionID>2.1</cbc:UBLVersionID>',
    '  <cbc:CustomizationID>2.0</cbc:CustomizationID>',
    `  <cbc:ID>${xmlText(invoice.id)}</cbc:ID>`,
    `  <cbc:IssueDate>${invoice.issuedAt}</cbc:IssueDate>`,
    root === 'Invoice' ? `  <cbc:InvoiceTypeCode listID="0101">${code}</cbc:InvoiceTypeCode>` : '',
    `  <cbc:DocumentCurrencyCode>${invoice.currency}</cbc:DocumentCurrencyCode>`,
    ...noteReferenceXml(invoice),
    `  <cac:AccountingSupplierParty>${party(invoice.supplierId, invoice.supplierName)}</cac:AccountingSupplierParty>`,
    `  <cac:AccountingCustomerParty>${party(invoice.client, invoice.clientName)}</cac:AccountingCustomerParty>`,
    `  <cac:TaxTotal><cbc:TaxAmount ${money(invoice.taxAmount)}</cbc:TaxAmount></cac:TaxTotal>`,
    `  <cac:LegalMonetaryTotal><cbc:PayableAmount ${money(invoice.amount)}</cbc:PayableAmount></cac:LegalMonetaryTotal>`,
    `</${root}>`,
    '',
  ]
    .filter(Boolean)
    .join('\n');
}

/**
 * Puts a real file at every seeded invoice's pdfUrl and xmlUrl in the documents bucket, so that the
 * demo downloads open. Called by the local stage right after it seeds the table.
 */
export async function seedDocuments(
  s3: S3Client,
  bucket: string,
  invoices: readonly Invoice[] = buildWorld().invoices,
): Promise<number> {
  const puts: PutObjectCommand[] = [];
  for (const invoice of invoices) {
    const name = `${invoice.supplierId}-${invoice.id}`;
    if (invoice.pdfUrl) {
      const pdf = minimalPdf([
        `Comprobante ${invoice.id} (${invoice.type})`,
        `Emisor: ${invoice.supplierName} - RUC ${invoice.supplierId}`,
        `Adquirente: ${invoice.clientName} - RUC ${invoice.client}`,
        `Fecha de emision: ${invoice.issuedAt}`,
        `Importe total: ${invoice.currency} ${invoice.amount.toFixed(2)}`,
        'Documento de demostracion del Portal de Proveedores.',
      ]);
      puts.push(
        new PutObjectCommand({
          Bucket: bucket,
          Key: invoice.pdfUrl,
          Body: pdf,
          ContentType: 'application/pdf',
          Metadata: { filename: `${name}.pdf` },
        }),
      );
    }
    if (invoice.xmlUrl) {
      puts.push(
        new PutObjectCommand({
          Bucket: bucket,
          Key: invoice.xmlUrl,
          Body: Buffer.from(ublXml(invoice), 'utf8'),
          ContentType: 'application/xml',
          Metadata: { filename: `${name}.xml` },
        }),
      );
    }
  }
  // A few at a time: s3rver writes each object to disk.
  for (let i = 0; i < puts.length; i += 16) await Promise.all(puts.slice(i, i + 16).map((put) => s3.send(put)));
  return puts.length;
}
