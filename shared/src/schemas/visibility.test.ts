import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ROUTES, routes } from '../manifest.js';
import { buildOpenApi } from '../openapi.js';
import type { InvoiceAuditEvent } from './invoice-audit.js';
import type { InvoiceDetail } from './invoices.js';
import { forLevel, staffOnly, staffOnlyFieldsIn, supplierView } from './visibility.js';

const STAFF_EMAIL = 'aprobador@grupo.pe';

/** An invoice detail with every staff-only field filled in, as a manager's answer holds it. */
const detail = {
  id: 'F001-7',
  prefixId: 'F001',
  numericId: '7',
  type: 'FACTURA',
  status: 'ACCEPTED',
  statusMessage: null,
  certStatus: 'VALID',
  approved: true,
  supplierId: '20456178325',
  supplierName: 'Proveedor SAC',
  client: '20100070970',
  clientName: 'Grupo SA',
  responsible: { id: 'E1', fullName: 'Ana Ruiz', office: 'Lima' },
  officeId: 'O1',
  locationId: 'L1',
  operationType: null,
  currency: 'PEN',
  amount: 118,
  taxAmount: 18,
  serviceSheets: [],
  materialDocs: [],
  purchaseOrders: ['4500000001'],
  attachments: [],
  issuedAt: '2026-03-01',
  receivedAt: '2026-03-01T10:00:00.000Z',
  scheduledAt: null,
  paidAt: null,
  xmlUrl: null,
  pdfUrl: null,
  disapprovedWithoutRejection: false,
  notes: 'Nota del proveedor',
  statusHistory: [
    { status: 'PENDING', title: 'Registrado', additionalMessage: null, date: '2026-03-01T10:00:00.000Z', by: null },
    {
      status: 'ACCEPTED',
      title: 'Aprobado',
      additionalMessage: null,
      date: '2026-03-02T10:00:00.000Z',
      by: STAFF_EMAIL,
    },
  ],
  sapDocument: { number: '5105600001', fiscalYear: '2026' },
  rucRiskOverride: {
    by: STAFF_EMAIL,
    at: '2026-03-02T10:00:00.000Z',
    reason: 'Riesgo aceptado por gerencia',
    estadoRuc: 'SUSPENSION TEMPORAL',
    condDomiRuc: 'HABIDO',
  },
  observation: { since: '2026-03-01T12:00:00.000Z', by: STAFF_EMAIL, reason: 'Falta la guía de remisión' },
  supplierCdr: {
    responseCode: '0',
    description: 'La Factura numero F001-7, ha sido aceptada',
    verdict: 'ACCEPTED',
    documentId: 'F001-7',
    senderTaxId: '20131312955',
    responseDate: '2026-03-01',
    notes: [],
    fileKey: 'cdr/key.xml',
    receivedAt: '2026-03-01T10:00:00.000Z',
    contradiction: {
      reasons: [{ kind: 'ACCEPTED_BUT_NOT_VALID', message: 'El CDR dice aceptado; SUNAT no lo valida.' }],
      flaggedAt: '2026-03-01T10:05:00.000Z',
    },
  },
  officeLocation: null,
  sapPosting: {
    state: 'POSTED',
    late: false,
    attempts: 2,
    maxAttempts: 5,
    requestedAt: '2026-03-02T10:00:00.000Z',
    nextAttemptAt: null,
    reason: 'RFC_ERROR_SYSTEM_FAILURE',
    document: { number: '5105600001', fiscalYear: '2026' },
  },
  sunatCheck: {
    pendingSince: '2026-03-01T10:00:00.000Z',
    nextCheckAt: null,
    lastFailureAt: null,
    requestedBy: STAFF_EMAIL,
    requestedAt: '2026-03-01T11:00:00.000Z',
  },
} satisfies InvoiceDetail;

const parse = <T>(schema: z.ZodMiniType, value: T): T => schema.parse(value) as T;

describe('an answer as each role reads it', () => {
  it("leaves every staff-only field out of a supplier's invoice, and nothing else", () => {
    const answer = parse(routes.getInvoice.response, detail);
    const seen = forLevel(routes.getInvoice.response, answer, 'SUPPLIER');
    for (const field of ['sapDocument', 'rucRiskOverride', 'sapPosting'] as const)
      expect(seen).not.toHaveProperty(field);
    expect(seen.statusHistory.map((entry) => Object.keys(entry))).toEqual([
      ['status', 'title', 'additionalMessage', 'date'],
      ['status', 'title', 'additionalMessage', 'date'],
    ]);
    expect(seen.observation).toEqual({ since: detail.observation.since, reason: detail.observation.reason });
    expect(seen.supplierCdr).not.toHaveProperty('contradiction');
    expect(seen.supplierCdr).toMatchObject({ responseCode: '0', verdict: 'ACCEPTED' });
    expect(seen.sunatCheck).toEqual({
      pendingSince: detail.sunatCheck.pendingSince,
      nextCheckAt: null,
      lastFailureAt: null,
      requestedAt: detail.sunatCheck.requestedAt,
    });
    expect(JSON.stringify(seen)).not.toContain(STAFF_EMAIL);
    expect(JSON.stringify(seen)).not.toContain('Riesgo aceptado');
    // What the supplier reads of its own invoice is all there, as it was.
    expect(seen).toMatchObject({
      id: 'F001-7',
      amount: 118,
      notes: 'Nota del proveedor',
      purchaseOrders: ['4500000001'],
    });
    // The answer still keeps its contract for the supplier.
    expect(routes.getInvoice.response.safeParse(seen).success).toBe(true);
    expect(staffOnlyFieldsIn(routes.getInvoice.response, seen)).toEqual([]);
  });

  it('gives staff the answer whole and leaves the parsed answer untouched for them', () => {
    const answer = parse(routes.getInvoice.response, detail);
    for (const level of ['MANAGER', 'ADMIN'] as const)
      expect(forLevel(routes.getInvoice.response, answer, level)).toBe(answer);
    forLevel(routes.getInvoice.response, answer, 'SUPPLIER');
    expect(answer.rucRiskOverride?.reason).toBe('Riesgo aceptado por gerencia');
    expect(staffOnlyFieldsIn(routes.getInvoice.response, answer)).toEqual([
      'statusHistory[0].by',
      'statusHistory[1].by',
      'sapDocument',
      'rucRiskOverride',
      'observation.by',
      'supplierCdr.contradiction',
      'sapPosting',
      'sunatCheck.requestedBy',
    ]);
  });

  it('projects every row of a list page and keeps its cursor', () => {
    const { statusHistory: _history, officeLocation: _o, sapPosting: _p, sunatCheck: _c, ...row } = detail;
    const page = parse(routes.listInvoices.response, { items: [row, row], nextCursor: 'next' });
    const seen = forLevel(routes.listInvoices.response, page, 'SUPPLIER');
    expect(seen.nextCursor).toBe('next');
    expect(seen.items).toHaveLength(2);
    expect(JSON.stringify(seen)).not.toContain(STAFF_EMAIL);
    expect(seen.items.every((item) => !('rucRiskOverride' in item) && !('sapDocument' in item))).toBe(true);
  });

  it("reads a supplier's trail without what the audit holds for staff", () => {
    const actor = { id: 'u-123', name: 'Ana Ruiz', email: STAFF_EMAIL, role: 'ADMIN', signIn: 'CORPORATE' } as const;
    const event = (
      id: string,
      action: InvoiceAuditEvent['action'],
      changes: InvoiceAuditEvent['changes'],
      note: string | null = null,
    ) =>
      ({
        id,
        occurredAt: '2026-03-02T10:00:00.000Z',
        action,
        actor,
        changes,
        note,
        txId: `tx-${id}`,
      }) satisfies InvoiceAuditEvent;
    const trail = [
      event('submitted', 'SUBMITTED', [
        { field: 'status', before: null, after: 'PENDING' },
        { field: 'cdrContradiction', before: null, after: 'Sí' },
      ]),
      event('flag-only', 'SUNAT_CHECKED', [{ field: 'cdrContradiction', before: null, after: 'Sí' }]),
      event('retry', 'SAP_POSTING_RETRIED', [{ field: 'statusMessage', before: 'x', after: null }]),
      event('recheck', 'SUNAT_RECHECK_REQUESTED', []),
      event(
        'override',
        'APPROVED_DESPITE_RUC_RISK',
        [
          { field: 'status', before: 'COMPLETED', after: 'ACCEPTED' },
          { field: 'rucRiskOverride', before: null, after: 'Riesgo aceptado por gerencia' },
        ],
        'Riesgo aceptado por gerencia',
      ),
      event('posted', 'SAP_POSTED', [{ field: 'sapDocument', before: null, after: '5105600001/2026' }]),
      event('message', 'MESSAGE_POSTED', [], 'Hola'),
    ];
    const page = parse(routes.listInvoiceHistory.response, { items: trail, nextCursor: 'more' });
    const seen = forLevel(routes.listInvoiceHistory.response, page, 'SUPPLIER');
    expect(seen.nextCursor).toBe('more');
    expect(seen.items.map((e) => [e.id, e.action, e.changes.map((c) => c.field), e.note])).toEqual([
      ['submitted', 'SUBMITTED', ['status'], null],
      ['override', 'APPROVED', ['status'], null],
      ['message', 'MESSAGE_POSTED', [], 'Hola'],
    ]);
    expect(
      seen.items.every(
        (e) => !Object.hasOwn(e, 'txId') && e.actor.name === 'Ana Ruiz' && !Object.hasOwn(e.actor, 'email'),
      ),
    ).toBe(true);
    expect(JSON.stringify(seen)).not.toMatch(/aprobador@|Riesgo aceptado|5105600001|u-123/);
    expect(forLevel(routes.listInvoiceHistory.response, page, 'MANAGER')).toEqual(page);
  });

  it('follows a declaration through lists, unions and records', () => {
    const item = z.object({ shown: z.string(), secret: staffOnly(z.string()) });
    const schema = z.object({
      list: z.array(item),
      either: z.union([z.string(), item]),
      byKey: z.record(z.string(), item),
      some: supplierView(z.array(z.number()), (values) => values.filter((n) => n > 0)),
    });
    const value = parse(schema, {
      list: [{ shown: 'a', secret: 's' }],
      either: { shown: 'b', secret: 's' },
      byKey: { k: { shown: 'c', secret: 's' } },
      some: [1, -1, 2],
    });
    expect(forLevel(schema, value, 'SUPPLIER')).toEqual({
      list: [{ shown: 'a' }],
      either: { shown: 'b' },
      byKey: { k: { shown: 'c' } },
      some: [1, 2],
    });
  });
});

describe('the declarations in the manifest', () => {
  it('mark every staff-only field of an answer in the OpenAPI document', () => {
    const text = JSON.stringify(buildOpenApi());
    expect(text).toContain('"x-staff-only":true');
    // A supplier's routes that carry an invoice all declare its staff-only fields.
    const carrying = ROUTES.filter((def) => (def.roles as readonly string[]).includes('SUPPLIER')).filter((def) =>
      JSON.stringify(z.toJSONSchema(def.response, { io: 'output', unrepresentable: 'any' })).includes(
        '"rucRiskOverride"',
      ),
    );
    expect(carrying.map((def) => def.id).sort()).toEqual(
      ['createInvoiceFromXml', 'createInvoiceWithoutXml', 'getInvoice', 'listInvoices'].sort(),
    );
    for (const def of carrying) {
      expect(JSON.stringify(z.toJSONSchema(def.response, { io: 'output', unrepresentable: 'any' }))).toContain(
        '"x-staff-only":true',
      );
    }
  });
});
