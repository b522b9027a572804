import { describe, expect, it } from 'vitest';
import { routes, type InvoiceDetail, type InvoiceSummary } from '@portal/shared';
import { CLIENTS, NO_HABIDO_SUPPLIER, buildWorld, tenantUsername } from '../support/tenant.js';
import { call } from '../support/api.js';
import {
  adminToken,
  detailOf,
  freshSupplier,
  managerToken,
  orderWithHes,
  pathOf,
  registered,
  reviewBody,
  sunatControl,
  validated,
} from '../support/notes.js';
import { randomCorrelative } from '../support/invoices.js';
import { until } from '../support/until.js';

/*
 * The RUC risk gate (docs/ap-notes-and-risk.md): SUNAT's validation answers the state of the supplier's
 * RUC and of its address; an invoice whose supplier is not ACTIVO and HABIDO is not approved by a manager, and an
 * administrator may approve it with a written reason, kept in the history. The SUNAT simulator answers every state,
 * per RUC or per document. The manager's company (CLIENTS[0]) with suppliers of this file's own.
 */
const COMPANY = CLIENTS[0]!;

/** An invoice of `supplier` at the manager's company, validated by SUNAT and completed, ready to approve. */
async function completedInvoice(supplier: { taxId: string; name: string }, numericId = randomCorrelative()) {
  const invoice = await registered({ supplier, client: COMPANY.taxId, numericId });
  const validatedInvoice = await validated(invoice);
  const { order, hes } = await orderWithHes(supplier.taxId, COMPANY.taxId, 10_000);
  const completed = await call<InvoiceDetail>(routes.updateInvoice, {
    token: await adminToken(),
    path: pathOf(invoice),
    body: reviewBody(COMPANY.taxId, { purchaseOrders: [order], serviceSheets: [hes] }),
  });
  expect(completed.status, JSON.stringify(completed.body)).toBe(200);
  return { invoice: completed.body, sunat: validatedInvoice.sunat };
}

const codeOf = (response: { status: number; body: { errors?: { code: string }[]; message?: string } }) => ({
  status: response.status,
  code: response.body.errors?.[0]?.code,
});

describe('the RUC risk gate', () => {
  it('keeps a NO HABIDO supplier’s invoice from the manager, and lets the administrator approve it with a reason', async () => {
    const supplier = freshSupplier('Proveedor No Habido S.A.C.');
    // SUNAT answers this RUC as ACTIVO but NO HABIDO, for every document it issues.
    const chosen = await sunatControl('/__control/taxpayers', {
      numRuc: supplier.taxId,
      estadoRuc: '00',
      condDomiRuc: '12',
    });
    expect(chosen.status).toBe(200);
    const { invoice, sunat } = await completedInvoice(supplier);
    expect(sunat).toMatchObject({ estadoRuc: 'ACTIVO', condDomiRuc: 'NO HABIDO' });

    const manager = await managerToken();
    const refused = await call(routes.approveInvoice, { token: manager, path: pathOf(invoice) });
    expect({ ...codeOf(refused), message: refused.body.message }).toEqual({
      status: 409,
      code: 'ERROR_APPROVE_INVOICE_WITH_RUC_RISK',
      message:
        'No se puede aprobar: SUNAT informa que el proveedor no está ACTIVO y HABIDO (RUC ACTIVO, domicilio NO HABIDO). Solo un administrador puede aprobarlo, indicando el motivo.',
    });
    // The exception is the administrator's alone: the manifest refuses it to a manager.
    const managerOverride = await call(routes.approveInvoiceDespiteRucRisk, {
      token: manager,
      path: pathOf(invoice),
      body: { reason: 'Lo autorizo yo' },
    });
    expect(codeOf(managerOverride)).toEqual({ status: 403, code: 'ERROR_FORBIDDEN' });

    const admin = await adminToken();
    // An administrator too needs the route that asks for a reason, and a reason.
    expect(codeOf(await call(routes.approveInvoice, { token: admin, path: pathOf(invoice) }))).toEqual({
      status: 409,
      code: 'ERROR_APPROVE_INVOICE_WITH_RUC_RISK',
    });
    const blank = await call(routes.approveInvoiceDespiteRucRisk, {
      token: admin,
      path: pathOf(invoice),
      body: { reason: '   ' },
    });
    expect({ ...codeOf(blank), message: blank.body.message }).toEqual({
      status: 400,
      code: 'ERROR_RUC_RISK_OVERRIDE_WITHOUT_REASON',
      message: 'Indique el motivo por el que aprueba el comprobante pese al estado del RUC del proveedor.',
    });
    expect((await detailOf(invoice)).status).toBe('COMPLETED');

    const reason = 'El proveedor acreditó su nuevo domicilio fiscal; SUNAT aún no lo actualiza.';
    const approved = await call<InvoiceDetail>(routes.approveInvoiceDespiteRucRisk, {
      token: admin,
      path: pathOf(invoice),
      body: { reason },
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toMatchObject({
      status: 'ACCEPTED',
      rucRiskOverride: {
        by: tenantUsername('admin@grupoandino.pe'),
        reason,
        estadoRuc: 'ACTIVO',
        condDomiRuc: 'NO HABIDO',
      },
    });
    expect(approved.body.statusHistory.at(-1)).toMatchObject({
      status: 'ACCEPTED',
      by: tenantUsername('admin@grupoandino.pe'),
      additionalMessage: `Excepción por el estado del RUC (RUC ACTIVO, domicilio NO HABIDO): ${reason}`,
    });
    // Approved like any other: the MIRO reaches SAP.
    await until(async () => (await detailOf(invoice)).sapDocument ?? null, { message: 'the SAP posting' });
  });

  it('answers every RUC state per document, and gates any that is not ACTIVO', async () => {
    const supplier = freshSupplier();
    const numericId = randomCorrelative();
    // This document only: the RUC is in baja definitiva (estadoRuc 10), the address HABIDO.
    const chosen = await sunatControl('/__control/outcomes', {
      numRuc: supplier.taxId,
      numeroSerie: 'F007',
      numero: numericId,
      outcome: 'VALID',
      estadoRuc: '10',
      condDomiRuc: '00',
    });
    expect(chosen.status).toBe(200);
    const { invoice, sunat } = await completedInvoice(supplier, numericId);
    expect(sunat).toMatchObject({ estadoRuc: 'BAJA DEFINITIVA', condDomiRuc: 'HABIDO' });
    const refused = await call(routes.approveInvoice, { token: await managerToken(), path: pathOf(invoice) });
    expect(codeOf(refused)).toEqual({ status: 409, code: 'ERROR_APPROVE_INVOICE_WITH_RUC_RISK' });
    expect(refused.body.errors[0].parameters).toMatchObject({ estadoRuc: 'BAJA DEFINITIVA', condDomiRuc: 'HABIDO' });

    // The list carries SUNAT's answer on the row, which the screen marks.
    const rows = await call(routes.listInvoices, {
      token: await managerToken(),
      query: { client: COMPANY.taxId, issuer: supplier.taxId },
    });
    expect(rows.body.items.map((row: InvoiceSummary) => row.sunat)).toEqual([
      expect.objectContaining({ estadoRuc: 'BAJA DEFINITIVA', condDomiRuc: 'HABIDO' }),
    ]);
  });

  it('lets the manager approve an ACTIVO and HABIDO supplier’s invoice, and refuses an override there', async () => {
    const { invoice, sunat } = await completedInvoice(freshSupplier());
    expect(sunat).toMatchObject({ estadoRuc: 'ACTIVO', condDomiRuc: 'HABIDO' });
    const override = await call(routes.approveInvoiceDespiteRucRisk, {
      token: await adminToken(),
      path: pathOf(invoice),
      body: { reason: 'Por si acaso' },
    });
    expect({ ...codeOf(override), message: override.body.message }).toEqual({
      status: 409,
      code: 'ERROR_RUC_RISK_OVERRIDE_NOT_NEEDED',
      message: 'SUNAT informa que el proveedor está ACTIVO y HABIDO: apruebe el comprobante sin excepción.',
    });
    const approved = await call<InvoiceDetail>(routes.approveInvoice, {
      token: await managerToken(),
      path: pathOf(invoice),
    });
    expect(approved.body).toMatchObject({ status: 'ACCEPTED' });
    expect(approved.body.rucRiskOverride ?? null).toBeNull();
  });

  it('refuses a state SUNAT never answers, in the simulator’s control too', async () => {
    const unknown = await sunatControl('/__control/taxpayers', {
      numRuc: freshSupplier().taxId,
      estadoRuc: '99',
      condDomiRuc: '00',
    });
    expect(unknown.status).toBe(400);
    const unknownAddress = await sunatControl('/__control/outcomes', {
      numRuc: freshSupplier().taxId,
      numeroSerie: 'F007',
      numero: '5',
      outcome: 'VALID',
      condDomiRuc: '13',
    });
    expect(unknownAddress.status).toBe(400);
  });

  it('seeds a NO HABIDO supplier whose completed factura the manager cannot approve', async () => {
    const seeded = buildWorld().invoices.find(
      (invoice) => invoice.supplierId === NO_HABIDO_SUPPLIER.taxId && invoice.status === 'COMPLETED',
    )!;
    expect(seeded.sunat).toMatchObject({ condDomiRuc: 'NO HABIDO' });
    const refused = await call(routes.approveInvoice, { token: await managerToken(), path: pathOf(seeded) });
    expect(codeOf(refused)).toEqual({ status: 409, code: 'ERROR_APPROVE_INVOICE_WITH_RUC_RISK' });
  });
});
