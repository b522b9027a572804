import { readFileSync } from 'node:fs';
import path from 'node:path';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { routes, type FileLink, type Invoice, type InvoiceDetail, type Notification } from '@portal/shared';
import { S3_CLIENT_COMPAT } from '../../infra/local/services/s3.js';
import { LOCAL_CREDENTIALS } from '../../infra/local/services/types.js';
import { call, type CallResult } from '../support/api.js';
import { freshCorrelative, managerToken, supplierToken, ublFactura, until } from '../support/invoices.js';
import { stage } from '../support/stage.js';
import { uploadAs } from '../support/uploads.js';

/**
 * SUNAT's CDR sent with the document through 'Cargar XML' (issue 24, docs/ap-cdr.md): kept as the supplier's
 * evidence beside SUNAT's check, downloadable, judged again when SUNAT answers, and flagged to staff when it
 * contradicts SUNAT. The CDR is SUNAT's accepted answer of the corpus factura, renamed to each test's document.
 */
const CDR_FIXTURE = readFileSync(
  path.join(import.meta.dirname, '../fixtures/cdr/R-20456178325-01-F001-00000458.xml'),
  'utf8',
);
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
    const valid = await until('SUNAT’s answer', async () => {
      const current = await detail(submitted.body, manager);
      return current.certStatus === 'VALID' && current;
    });
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
    const flagged = await until('SUNAT’s answer', async () => {
      const current = await detail(submitted.body, manager);
      return current.certStatus === 'INVALID' && current;
    });
    expect(flagged.supplierCdr?.contradiction?.reasons.map((reason) => reason.kind)).toEqual([
      'ACCEPTED_BUT_NOT_VALID',
    ]);
    // The CDR never changes SUNAT's verdict.
    expect(flagged.certStatus).toBe('INVALID');
    const notice = await until('the notice to staff', async () => {
      const feed = (await call<{ items: Notification[] }>(routes.listNotifications, { token: manager })).body.items;
      return feed.find(
        (item) =>
          item.reference?.invoiceId === submitted.body.id && item.message.startsWith('La constancia de recepción'),
      );
    });
    expect(notice.message).toMatch(/^La constancia de recepción \(CDR\) que .+ envió con la factura .+ no concuerda/);
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
