import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import {
  routes,
  type FileLink,
  type Invoice,
  type InvoiceAuditEvent,
  type InvoiceDetail,
  type InvoiceSummary,
  type Notification,
} from '@portal/shared';
import { S3_CLIENT_COMPAT } from '../../local/stand-ins/s3.js';
import { LOCAL_CREDENTIALS } from '../../local/stand-ins/types.js';
import { call, type CallResult } from '../support/api.js';
import { freshCorrelative, managerToken, supplierToken, ublFactura } from '../support/invoices.js';
import { stage } from '../support/stage.js';
import { uploadAs } from '../support/uploads.js';
import { CLIENTS, tenantFixture } from '../support/tenant.js';
import { until } from '../support/until.js';

/**
 * SUNAT's CDR sent with the document through 'Cargar XML' (docs/ap-cdr.md): kept as the supplier's
 * evidence beside SUNAT's check, downloadable, judged again when SUNAT answers, and flagged to staff when it
 * contradicts SUNAT. The CDR is SUNAT's accepted answer of the corpus factura, renamed to each test's document.
 */
const CDR_FIXTURE = tenantFixture('cdr/R-20456178325-01-F001-00000458.xml');
const cdrOf = (documentId: string) => Buffer.from(CDR_FIXTURE.replaceAll('F001-00000458', documentId));

/** The SUNAT simulator answers a correlative ending in 91 ANNULLED; fresh ones are accepted. */
function annulledCorrelative(): string {
  return String(Math.floor(Number(freshCorrelative()) / 100) * 100 + 91);
}

async function submitWithCdr(correlative: string, cdr: Buffer): Promise<CallResult<Invoice>> {
  const token = await supplierToken();
  const factura = ublFactura(correlative);
  const url = await uploadAs(token, 'INVOICE_XML', factura.bytes, 'application/xml', 'factura.xml');
  const cdrUrl = await uploadAs(token, 'INVOICE_CDR', cdr, 'application/xml', `R-${factura.invoiceId}.xml`);
  return call<Invoice>(routes.createInvoiceFromXml, { token, body: { url, cdrUrl } });
}

const pathOf = (invoice: Pick<Invoice, 'supplierId' | 'type' | 'id'>) => ({
  supplierId: invoice.supplierId,
  invoiceType: invoice.type,
  invoiceId: invoice.id,
});

async function detail(invoice: Invoice, token: string): Promise<InvoiceDetail> {
  return (await call<InvoiceDetail>(routes.getInvoice, { token, path: pathOf(invoice) })).body;
}

/** The manager's detail of `invoice` once SUNAT's answer has left it `certStatus`. */
function answered(invoice: Invoice, token: string, certStatus: InvoiceDetail['certStatus']): Promise<InvoiceDetail> {
  return until(
    async () => {
      const current = await detail(invoice, token);
      return current.certStatus === certStatus && current;
    },
    { message: 'SUNAT’s answer' },
  );
}

/** The invoice's whole trail as the token's user reads it. */
async function historyOf(invoice: Invoice, token: string): Promise<InvoiceAuditEvent[]> {
  const events: InvoiceAuditEvent[] = [];
  let cursor: string | undefined;
  do {
    const page = await call<{ items: InvoiceAuditEvent[]; nextCursor: string | null }>(routes.listInvoiceHistory, {
      token,
      path: pathOf(invoice),
      query: { limit: '50', ...(cursor ? { cursor } : {}) },
    });
    expect(page.status).toBe(200);
    events.push(...page.body.items);
    cursor = page.body.nextCursor ?? undefined;
  } while (cursor);
  return events;
}

/** The row the list's search finds for the invoice, as the token's user reads it. */
async function searchedRow(invoice: Invoice, token: string, client?: string): Promise<InvoiceSummary | undefined> {
  const found = await call<{ items: InvoiceSummary[] }>(routes.listInvoices, {
    token,
    query: { search: invoice.id, limit: 20, ...(client ? { client } : {}) },
  });
  expect(found.status).toBe(200);
  return found.body.items.find((item) => item.id === invoice.id && item.supplierId === invoice.supplierId);
}

const feedOf = async (token: string) =>
  (await call<{ items: Notification[] }>(routes.listNotifications, { token })).body.items;

async function exists(key: string): Promise<boolean> {
  const { region, endpoints, documentsBucket } = stage();
  const client = new S3Client({ region, endpoint: endpoints.s3, credentials: LOCAL_CREDENTIALS, ...S3_CLIENT_COMPAT });
  try {
    await client.send(new HeadObjectCommand({ Bucket: documentsBucket, Key: key }));
    return true;
  } catch {
    return false;
  }
}

describe("SUNAT's CDR sent with the document", () => {
  it('is kept as the supplier’s evidence, downloadable, and agrees with SUNAT once SUNAT answers', async () => {
    const correlative = freshCorrelative();
    const documentId = `F001-${correlative.padStart(8, '0')}`;
    const submitted = await submitWithCdr(correlative, cdrOf(documentId));
    expect(submitted.status).toBe(201);
    expect(submitted.body.supplierCdr).toMatchObject({ responseCode: '0', verdict: 'ACCEPTED', documentId });

    const manager = await managerToken();
    const valid = await answered(submitted.body, manager, 'VALID');
    expect(valid.supplierCdr?.contradiction).toBeNull();

    const link = await call<FileLink>(routes.getInvoiceFile, {
      token: manager,
      path: pathOf(submitted.body),
      query: { file: 'cdr' },
    });
    expect(link.body.fileName).toBe(`R-${submitted.body.supplierId}-${submitted.body.id}.xml`);
    const downloaded = await fetch(link.body.url);
    expect(await downloaded.text()).toBe(cdrOf(documentId).toString('utf8'));
  });

  it('is flagged to staff when it says accepted and SUNAT says the document is annulled', async () => {
    const correlative = annulledCorrelative();
    const submitted = await submitWithCdr(correlative, cdrOf(`F001-${correlative.padStart(8, '0')}`));
    expect(submitted.status).toBe(201);

    const manager = await managerToken();
    const flagged = await answered(submitted.body, manager, 'INVALID');
    expect(flagged.supplierCdr?.contradiction?.reasons.map((reason) => reason.kind)).toEqual([
      'ACCEPTED_BUT_NOT_VALID',
    ]);
    // The CDR never changes SUNAT's verdict.
    expect(flagged.certStatus).toBe('INVALID');
    const notice = await until(
      async () => {
        const feed = (await call<{ items: Notification[] }>(routes.listNotifications, { token: manager })).body.items;
        return feed.find(
          (item) =>
            item.reference?.invoiceId === submitted.body.id && item.message.startsWith('La constancia de recepción'),
        );
      },
      { message: 'the notice to staff' },
    );
    expect(notice.message).toMatch(/^La constancia de recepción \(CDR\) que .+ envió con la factura .+ no concuerda/);
  });

  it('is kept from the supplier, who reads its CDR but never that staff found it contradicting', async () => {
    // Accepted in the CDR, annulled for SUNAT, and issued (the CDR says) to another company: flagged at intake for
    // the acquirer, again when SUNAT answers for the verdict.
    const correlative = annulledCorrelative();
    const cdr = cdrOf(`F001-${correlative.padStart(8, '0')}`)
      .toString('utf8')
      .replace(`6-${CLIENTS[0]!.taxId}`, `6-${CLIENTS[1]!.taxId}`);
    const submitted = await submitWithCdr(correlative, Buffer.from(cdr));
    expect(submitted.status).toBe(201);
    // The intake's answer to the supplier: its CDR, without the acquirer mismatch flagged in the same write.
    expect(submitted.body.supplierCdr).toMatchObject({ responseCode: '0', verdict: 'ACCEPTED' });
    expect(submitted.body.supplierCdr).not.toHaveProperty('contradiction');

    const manager = await managerToken();
    const flagged = await answered(submitted.body, manager, 'INVALID');
    expect(flagged.supplierCdr?.contradiction?.reasons.map((reason) => reason.kind).sort()).toEqual([
      'ACCEPTED_BUT_NOT_VALID',
      'OTHER_CUSTOMER',
    ]);
    expect((await searchedRow(submitted.body, manager, submitted.body.client))?.supplierCdr?.contradiction).toEqual(
      flagged.supplierCdr?.contradiction,
    );
    const managersTrail = await historyOf(submitted.body, manager);
    expect(managersTrail.flatMap((event) => event.changes).filter((c) => c.field === 'cdrContradiction')).toEqual([
      expect.objectContaining({ before: null, after: 'Sí' }),
    ]);
    await until(
      async () =>
        (await feedOf(manager)).some(
          (item) => item.reference?.invoiceId === submitted.body.id && item.message.startsWith('La constancia'),
        ),
      { message: 'the notice to staff' },
    );

    const supplier = await supplierToken();
    const seen = await detail(submitted.body, supplier);
    expect(seen.certStatus).toBe('INVALID');
    expect(seen.supplierCdr).toMatchObject({ responseCode: '0', verdict: 'ACCEPTED' });
    expect(seen.supplierCdr).not.toHaveProperty('contradiction');
    const row = await searchedRow(submitted.body, supplier);
    expect(row?.supplierCdr).toMatchObject({ responseCode: '0' });
    expect(row?.supplierCdr).not.toHaveProperty('contradiction');
    const suppliersTrail = await historyOf(submitted.body, supplier);
    // The same records (the CDR's arrival, SUNAT's answer), without the flag's changes.
    expect(suppliersTrail.map((event) => event.id)).toEqual(managersTrail.map((event) => event.id));
    expect(suppliersTrail.flatMap((event) => event.changes.map((c) => c.field))).toEqual(
      managersTrail.flatMap((event) => event.changes.map((c) => c.field)).filter((f) => f !== 'cdrContradiction'),
    );
    expect(suppliersTrail.flatMap((event) => event.changes.map((c) => c.field))).toContain('supplierCdr');
    // Nor is it told: the notice goes to the company's staff only.
    const suppliersFeed = (await feedOf(supplier)).filter((item) => item.reference?.invoiceId === submitted.body.id);
    expect(suppliersFeed.length).toBeGreaterThan(0);
    expect(suppliersFeed.filter((item) => /constancia|CDR/i.test(item.message))).toEqual([]);
  });

  it('refuses the submission for the CDR of another document, and keeps neither file', async () => {
    const token = await supplierToken();
    const factura = ublFactura(freshCorrelative());
    const url = await uploadAs(token, 'INVOICE_XML', factura.bytes, 'application/xml', 'factura.xml');
    const cdrUrl = await uploadAs(token, 'INVOICE_CDR', cdrOf('F001-00000001'), 'application/xml', 'R-otro.xml');

    const refused = await call(routes.createInvoiceFromXml, { token, body: { url, cdrUrl } });

    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].code).toBe('ERROR_CDR_OTHER_DOCUMENT');
    expect(refused.body.message).toContain('F001-00000001');
    expect([await exists(url), await exists(cdrUrl)]).toEqual([false, false]);
  });
});
