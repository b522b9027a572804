import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_SAP_CREDENTIALS, localCompanyCodes, startSapSimulator } from '../../local/simulators/sap.js';
import type { RunningService } from '../../local/stand-ins/types.js';
import { freePort, makeTempDir, removeDir } from './helpers.js';

const HOST = '127.0.0.1';
const SERVICE = '/sap/opu/odata/sap/API_SUPPLIERINVOICE_PROCESS_SRV';
const SUPPLIER = '20999888777';
const [COMPANY, COMPANY_CODE] = Object.entries(localCompanyCodes())[0]!;
const AUTH = `Basic ${Buffer.from(`${LOCAL_SAP_CREDENTIALS.username}:${LOCAL_SAP_CREDENTIALS.password}`).toString('base64')}`;

let dir: string;
let sap: RunningService | undefined;

/** Starts the simulator on the same state file (on a fresh port: no client keeps a socket to the old one). */
const start = async () => {
  sap = await startSapSimulator(await freePort(), HOST, { stateFile: path.join(dir, 'sap-state.jsonl') });
  return sap;
};

/** A purchase order and its service sheet of 100.00 PEN, as SAP would know them. */
async function registerOrder(endpoint: string): Promise<void> {
  const response = await fetch(`${endpoint}/__control/documents`, {
    method: 'POST',
    body: JSON.stringify({
      purchaseOrders: [{ id: '4500099001', issuerTaxId: SUPPLIER, acquirerTaxId: COMPANY, currency: 'PEN' }],
      conformityDocuments: [
        {
          kind: 'SERVICE_SHEET',
          documentId: '1000099001',
          purchaseOrder: '4500099001',
          fiscalYear: '2026',
          issuerTaxId: SUPPLIER,
          acquirerTaxId: COMPANY,
          amount: 100,
          currency: 'PEN',
        },
      ],
    }),
  });
  expect(response.status).toBe(200);
}

/** One MIRO posting as the portal sends it: CSRF handshake, then the deep insert with its idempotency key. */
async function post(endpoint: string, invoiceId: string, requestId: string): Promise<string> {
  const handshake = await fetch(`${endpoint}${SERVICE}/`, {
    headers: { authorization: AUTH, 'x-csrf-token': 'fetch' },
  });
  const token = handshake.headers.get('x-csrf-token') ?? '';
  const cookie = (handshake.headers.get('set-cookie') ?? '').split(';')[0]!;
  const response = await fetch(`${endpoint}${SERVICE}/A_SupplierInvoice`, {
    method: 'POST',
    headers: {
      authorization: AUTH,
      'x-csrf-token': token,
      cookie,
      'content-type': 'application/json',
      'repeatability-request-id': requestId,
    },
    body: JSON.stringify({
      CompanyCode: COMPANY_CODE,
      InvoicingParty: SUPPLIER,
      SupplierInvoiceIDByInvcgParty: invoiceId,
      DocumentCurrency: 'PEN',
      InvoiceGrossAmount: '118.00',
      to_SuplrInvcItemPurOrdRef: {
        results: [
          { PurchaseOrder: '4500099001', ServiceEntrySheet: '1000099001', SupplierInvoiceItemAmount: '100.00' },
        ],
      },
      to_SupplierInvoiceTax: { results: [{ TaxAmount: '18.00' }] },
    }),
  });
  const body = (await response.json()) as { d?: { SupplierInvoice?: string }; error?: unknown };
  expect(response.status, JSON.stringify(body)).toBe(201);
  return body.d!.SupplierInvoice!;
}

async function postings(endpoint: string): Promise<number> {
  const response = await fetch(`${endpoint}/__control/postings?supplierId=${SUPPLIER}`);
  return ((await response.json()) as { total: number }).total;
}

beforeAll(async () => {
  dir = makeTempDir('portal-sap');
});

afterAll(async () => {
  await sap?.stop();
  if (dir) removeDir(dir);
});

describe('the SAP simulator across restarts', () => {
  it('continues its document numbers, keeps its postings, documents and idempotency keys', async () => {
    let service = await start();
    await registerOrder(service.endpoint);
    const first = await post(service.endpoint, 'F001-1', 'request-1');
    await service.stop();

    service = await start();
    // The order registered before the restart is still known, the number goes on, the key still answers.
    const second = await post(service.endpoint, 'F001-2', 'request-2');
    expect(Number(second)).toBe(Number(first) + 1);
    expect(await post(service.endpoint, 'F001-1', 'request-1')).toBe(first);
    expect(await postings(service.endpoint)).toBe(2);
    await service.stop();

    // A crash in the middle of a write leaves a torn last line: the next start ignores it and goes on.
    appendFileSync(path.join(dir, 'sap-state.jsonl'), '{"kind":"posting","posting":{"document":"99');
    service = await start();
    const third = await post(service.endpoint, 'F001-3', 'request-3');
    expect(Number(third)).toBe(Number(second) + 1);
    await service.stop();

    // ... and what was written after the torn line is kept too.
    service = await start();
    expect(await postings(service.endpoint)).toBe(3);
    expect(await post(service.endpoint, 'F001-3', 'request-3')).toBe(third);
    expect(Number(await post(service.endpoint, 'F001-4', 'request-4'))).toBe(Number(third) + 1);
  });
});
