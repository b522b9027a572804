import { routes, type InvoiceAuditEvent, type InvoiceSummary, type SupplierCdr } from '@portal/shared';
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import type { Caller } from '../http/caller.js';
import { makeInvoiceHistory } from './invoice-history.js';
import { auditTrailForCaller, invoiceForCaller } from './invoice-view.js';
import { makeListInvoices } from './list-invoices.js';

const SUPPLIER = '20456178325';
const CLIENT = '20100070970';

const caller = (level: Caller['level']): Caller => ({
  sub: 's',
  username: 's',
  email: 'e',
  firstName: 'f',
  lastName: 'l',
  level,
  taxIds: [level === 'SUPPLIER' ? SUPPLIER : CLIENT],
  groups: [],
  activeCompany: level === 'SUPPLIER' ? SUPPLIER : CLIENT,
  expiresAt: 0,
  signIn: 'PASSWORD',
  txId: 'test-tx',
});

const flaggedCdr: SupplierCdr = {
  responseCode: '0',
  description: 'La Factura numero F001-7, ha sido aceptada',
  verdict: 'ACCEPTED',
  documentId: 'F001-7',
  senderTaxId: '20131312955',
  responseDate: '2026-03-02',
  notes: [],
  fileKey: 'cdr/key.xml',
  receivedAt: '2026-03-02T10:00:00.000Z',
  contradiction: {
    reasons: [{ kind: 'ACCEPTED_BUT_NOT_VALID', message: 'El CDR dice aceptado; SUNAT no lo valida.' }],
    flaggedAt: '2026-03-02T10:05:00.000Z',
  },
};

const invoice = (cdr: SupplierCdr | null = flaggedCdr) =>
  ({ id: 'F001-7', supplierId: SUPPLIER, client: CLIENT, type: 'FACTURA', supplierCdr: cdr }) as InvoiceSummary;

const actor = { id: 'sunatValidation', name: 'Validación SUNAT', email: null, role: null, signIn: 'SYSTEM' } as const;
const event = (id: string, changes: InvoiceAuditEvent['changes']): InvoiceAuditEvent => ({
  id,
  occurredAt: '2026-03-02T10:05:00.000Z',
  action: 'SUNAT_CHECKED',
  actor,
  changes,
  note: null,
  txId: 'tx',
});
const trail: InvoiceAuditEvent[] = [
  event('submitted', [
    { field: 'status', before: null, after: 'PENDING' },
    { field: 'supplierCdr', before: null, after: '0' },
    { field: 'cdrContradiction', before: null, after: 'Sí' },
  ]),
  event('checked', [
    { field: 'certStatus', before: 'PENDING', after: 'INVALID' },
    { field: 'cdrContradiction', before: null, after: 'Sí' },
  ]),
  event('flag-only', [{ field: 'cdrContradiction', before: 'Sí', after: null }]),
  { ...event('message', []), action: 'MESSAGE_POSTED', note: 'Hola' },
];

describe('what of an invoice the caller may read', () => {
  it('hides from a supplier that its CDR was found contradicting SUNAT, and keeps the CDR it sent', () => {
    const seen = invoiceForCaller(caller('SUPPLIER'), invoice());
    expect(seen.supplierCdr).toEqual({ ...flaggedCdr, contradiction: null });
    expect(seen).toMatchObject({ id: 'F001-7', supplierId: SUPPLIER });
    // The stored invoice is not touched: staff reading the same object still see the flag.
    expect(invoice().supplierCdr?.contradiction).not.toBeNull();
  });

  it('shows the flag to managers and administrators as stored', () => {
    for (const level of ['MANAGER', 'ADMIN'] as const) {
      expect(invoiceForCaller(caller(level), invoice()).supplierCdr?.contradiction).toEqual(flaggedCdr.contradiction);
    }
  });

  it('hides it from any level that is not staff, and leaves invoices without a CDR or a flag as they are', () => {
    expect(invoiceForCaller(caller('UNKNOWN'), invoice()).supplierCdr?.contradiction).toBeNull();
    const plain = invoice(null);
    expect(invoiceForCaller(caller('SUPPLIER'), plain)).toBe(plain);
    const clean = invoice({ ...flaggedCdr, contradiction: null });
    expect(invoiceForCaller(caller('SUPPLIER'), clean)).toBe(clean);
  });

  it("drops the flag's changes from a supplier's trail, and a record that held nothing else", () => {
    const seen = auditTrailForCaller(caller('SUPPLIER'), trail);
    expect(seen.map((e) => e.id)).toEqual(['submitted', 'checked', 'message']);
    expect(seen.flatMap((e) => e.changes.map((c) => c.field))).toEqual(['status', 'supplierCdr', 'certStatus']);
    // A record with no changes of its own (a message) stays.
    expect(seen[2]).toEqual(trail[3]);
  });

  it("keeps staff's trail whole", () => {
    expect(auditTrailForCaller(caller('MANAGER'), trail)).toEqual(trail);
    expect(auditTrailForCaller(caller('ADMIN'), trail)).toEqual(trail);
  });
});

describe('where an invoice leaves for a caller', () => {
  it("projects every row of a supplier's list and search, not a manager's", async () => {
    const list = makeListInvoices({
      invoices: {
        list: async () => ({ items: [invoice(), invoice()], nextCursor: 'next' }),
        count: async () => ({ count: 2, exact: true }),
      },
    });
    const supplierPage = await list(caller('SUPPLIER'), { limit: 20, search: 'F001' } as never);
    expect(supplierPage.items.map((row) => row.supplierCdr?.contradiction)).toEqual([null, null]);
    expect(supplierPage.nextCursor).toBe('next');
    const managerPage = await list(caller('MANAGER'), { limit: 20 } as never);
    expect(managerPage.items.every((row) => row.supplierCdr?.contradiction !== null)).toBe(true);
  });

  it("projects the supplier's history page and keeps its cursor", async () => {
    const history = makeInvoiceHistory({
      store: { get: async () => ({ ...invoice(), version: 1 }) as never },
      trail: { list: async () => ({ items: trail, nextCursor: 'more' }) },
    });
    const path = { supplierId: SUPPLIER, invoiceType: 'FACTURA', invoiceId: 'F001-7' } as const;
    const page = { limit: 20 };
    const supplierPage = await history.list(caller('SUPPLIER'), path, page);
    expect(JSON.stringify(supplierPage.items)).not.toContain('cdrContradiction');
    expect(supplierPage.nextCursor).toBe('more');
    expect((await history.list(caller('MANAGER'), path, page)).items).toEqual(trail);
  });

  it('covers every route a supplier may call that answers with an invoice', () => {
    // A new route that answers an invoice to suppliers must read it through invoiceForCaller, then join this list.
    const projected = ['listInvoices', 'createInvoiceFromXml', 'createInvoiceWithoutXml', 'getInvoice'];
    const answeringInvoices = Object.values(routes)
      .filter((def) => (def.roles as readonly string[]).includes('SUPPLIER'))
      .filter((def) =>
        JSON.stringify(z.toJSONSchema(def.response, { io: 'output', unrepresentable: 'any' })).includes(
          '"supplierCdr"',
        ),
      )
      .map((def) => def.id);
    expect(answeringInvoices.sort()).toEqual([...projected].sort());
  });
});
