import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDays,
  conformityClockRecord,
  formatDate,
  keys,
  limaDayOf,
  routes,
  withCheckDigit,
  type Invoice,
  type InvoiceDetail,
  type InvoiceSummary,
} from '@portal/shared';
import { CLIENTS, EMPLOYEES, OFFICE_LOCATIONS, SUPPLIERS } from '../support/tenant.js';
import {
  conformityClockJob,
  creditFacturaXml,
  creditInvoiceFixture,
  moveStageClock,
  putStageClockBack,
  runConformityClock,
  stageTime,
} from '../support/acquirer-conformity.js';
import { call, idTokenOf, type CallResult } from '../support/api.js';
import { mailbox, table } from '../support/fixtures.js';
import { demoUser } from '../support/stage.js';
import { MINIMAL_PDF, uploadAs } from '../support/uploads.js';
import { randomCorrelative } from '../support/invoices.js';
import { until } from '../support/until.js';

/**
 * Ley 29623's conformity clock (docs/ap-conformity.md): the intake starts it for a factura al crédito, staff register
 * what they answered on SUNAT's platform (and are refused what the law does not allow), the scheduled job reminds the
 * invoice's responsible two days before and on the last day, exactly once, and presumes the conformity when the last
 * day ends, with both sides told. The clock-moving tests work at CLIENTS[2], which no other test reads the feed of,
 * and put the stage's clock back.
 */
const tokenOf = (role: 'SUPPLIER' | 'MANAGER' | 'ADMIN') => idTokenOf(demoUser(role).username, demoUser(role).password);
const pathOf = (invoice: Pick<Invoice, 'supplierId' | 'type' | 'id'>) => ({
  supplierId: invoice.supplierId,
  invoiceType: invoice.type,
  invoiceId: invoice.id,
});

function expectError(response: CallResult, status: number, code: string) {
  expect({ status: response.status, code: response.body?.errors?.[0]?.code }).toEqual({ status, code });
  expect(response.body.txId).toBe(response.requestId);
}

/** The detail on success; the error body otherwise. */
async function register(
  role: 'MANAGER' | 'ADMIN' | 'SUPPLIER',
  invoice: Invoice,
  body: Record<string, unknown>,
): Promise<CallResult> {
  return call(routes.registerAcquirerConformity, {
    token: await tokenOf(role),
    path: pathOf(invoice),
    body,
  });
}

async function detailOf(invoice: Invoice, role: 'MANAGER' | 'ADMIN' | 'SUPPLIER' = 'ADMIN') {
  const response = await call<InvoiceDetail>(routes.getInvoice, { token: await tokenOf(role), path: pathOf(invoice) });
  expect(response.status).toBe(200);
  return response.body;
}

/** The texts of an audience's feed about one invoice. */
async function feedAbout(audience: 'SUPPLIER' | 'CLIENT', taxId: string, invoice: Invoice): Promise<string[]> {
  const items = await table().partition(keys.feed(audience, taxId));
  return items
    .filter((item) => (item.reference as { invoiceId?: string } | undefined)?.invoiceId === invoice.id)
    .map((item) => String(item.message));
}

/** The messages about the invoice in the company's digest log (ADR 0050): the staff's routine events. */
async function digestLogAbout(client: string, invoice: Invoice): Promise<string[]> {
  const items = await table().partition(`DIGEST#CLIENT#${client}`);
  return items
    .filter((item) => (item.reference as { invoiceId?: string } | undefined)?.invoiceId === invoice.id)
    .map((item) => String(item.message));
}

const SUPPLIER = { taxId: withCheckDigit('2070000210'), name: 'Proveedor Plazo Ley 29623 S.A.C.' };
/** The supplier's account of this run, with e-mail reception on (as the user administration indexes it). */
const supplierEmail = `proveedor.plazo.${Date.now()}@demo.pe`;

beforeAll(async () => {
  await table().put({
    ...keys.recipient(SUPPLIER.taxId, `user-${supplierEmail}`),
    userId: `user-${supplierEmail}`,
    email: supplierEmail,
    canReceiveEmails: true,
  });
});

describe('the intake starts the clock of a factura al crédito', () => {
  it('counts 8 days from the reception and says so; a factura al contado runs none, and registering on it is refused', async () => {
    // Prepare
    const token = await tokenOf('SUPPLIER');
    const today = limaDayOf(stageTime());
    const submit = async (numericId: string, cash: boolean) => {
      const url = await uploadAs(
        token,
        'INVOICE_XML',
        creditFacturaXml({ numericId, issuedAt: today, cash }),
        'application/xml',
        'factura.xml',
      );
      return call<Invoice>(routes.createInvoiceFromXml, { token, body: { url } });
    };

    // Act
    const credit = await submit(randomCorrelative(), false);
    const cash = await submit(randomCorrelative(), true);

    // Assess
    expect(credit.status).toBe(201);
    expect(credit.body.payment).toMatchObject({ method: 'CREDITO', installments: [{ number: 1 }, { number: 2 }] });
    expect(credit.body.acquirerConformity).toEqual({
      countedFrom: today,
      countedFromBasis: 'RECEPTION',
      deadline: addDays(today, 8),
      state: 'OPEN',
      answers: [],
      presumedAt: null,
    });
    const detail = await detailOf(credit.body, 'SUPPLIER');
    expect(detail.acquirerConformity).toMatchObject({ daysLeft: 8, answerableUntil: addDays(today, 8) });
    // The company's open clocks, page after page until the new one (the other files' credit invoices of today share
    // its deadline, the latest there is, and may fill the first pages).
    const rows: InvoiceSummary[] = [];
    let cursor: string | undefined;
    do {
      const listed = await call<{ items: InvoiceSummary[]; nextCursor: string | null }>(routes.listInvoices, {
        token: await tokenOf('MANAGER'),
        query: { client: CLIENTS[0]!.taxId, acquirerConformity: 'OPEN', limit: 100, cursor },
      });
      expect(listed.status).toBe(200);
      rows.push(...listed.body.items);
      cursor = listed.body.nextCursor ?? undefined;
    } while (cursor && !rows.some((item) => item.id === credit.body.id));
    const row = rows.find((item) => item.id === credit.body.id);
    expect(row?.acquirerConformity).toMatchObject({ state: 'OPEN', deadline: addDays(today, 8), daysLeft: 8 });
    expect(rows.every((item) => item.acquirerConformity?.state === 'OPEN')).toBe(true);
    // Soonest deadline first.
    const deadlines = rows.map((item) => item.acquirerConformity!.deadline);
    expect(deadlines).toEqual([...deadlines].sort());

    expect(cash.status).toBe(201);
    expect(cash.body.acquirerConformity ?? null).toBeNull();
    const refused = await register('MANAGER', cash.body, { decision: 'CONFORMITY' });
    expectError(refused, 409, 'ERROR_ACQUIRER_CONFORMITY_NOT_APPLICABLE');
    expect(refused.body.message).toBe(
      'Este comprobante no está sujeto al plazo de conformidad de la Ley 29623: su forma de pago es al contado.',
    );
  });
});

describe('staff register what they answered on SUNAT’s platform', () => {
  const company = CLIENTS[0]!;

  it('a conformity: recorded in the history, the supplier told, the counters moved; it cannot be registered again', async () => {
    // Prepare
    const invoice = await creditInvoiceFixture({ client: company, supplier: SUPPLIER, receivedDaysAgo: 2 });
    const counters = async () => (await table().get(keys.dashboard(company.taxId, 'ALL'))) ?? {};
    const before = await counters();

    // Act
    const registered = await register('MANAGER', invoice, { decision: 'CONFORMITY', reason: 'Conforme en SUNAT.' });
    const again = await register('ADMIN', invoice, { decision: 'DISCONFORMITY', cause: 'NET_AMOUNT', reason: 'x' });

    // Assess
    expect(registered.status).toBe(200);
    expect(registered.body.acquirerConformity).toMatchObject({
      state: 'CONFORMITY',
      answers: [
        { decision: 'CONFORMITY', cause: null, reason: 'Conforme en SUNAT.', by: demoUser('MANAGER').username },
      ],
      answerableUntil: null,
    });
    expect(registered.body.status).toBe('PENDING');
    expect(registered.body.statusHistory.at(-1)).toMatchObject({
      status: 'PENDING',
      title: 'Conformidad registrada (Ley 29623)',
      additionalMessage: 'Conforme en SUNAT.',
    });
    expectError(again, 409, 'ERROR_ACQUIRER_CONFORMITY_IRREVOCABLE');
    const after = await counters();
    expect(Number(after.acquirerConformityOpen ?? 0) - Number(before.acquirerConformityOpen ?? 0)).toBe(-1);
    await until(
      async () => {
        const texts = await feedAbout('SUPPLIER', SUPPLIER.taxId, invoice);
        return texts.includes(`${company.name} registró su conformidad con la factura ${invoice.id} (Ley 29623).`);
      },
      { message: 'the supplier told of the conformity', timeout: 20_000 },
    );
    const record = await table().get(keys.acquirerConformity(invoice.supplierId, invoice.type, invoice.id));
    expect(record).toMatchObject({ state: 'CONFORMITY', step: null, nextAt: null });
    expect(record?.gsi1pk).toBeUndefined();
  });

  it('a disconformity needs its cause and reason, tells the supplier both, and is followed by conformity once corrected', async () => {
    // Prepare
    const invoice = await creditInvoiceFixture({ client: company, supplier: SUPPLIER, receivedDaysAgo: 1 });

    // Act: what the form must say
    const noCause = await register('MANAGER', invoice, { decision: 'DISCONFORMITY', reason: 'Monto errado' });
    const noReason = await register('MANAGER', invoice, {
      decision: 'DISCONFORMITY',
      cause: 'NET_AMOUNT',
      reason: ' ',
    });
    const causeWithConformity = await register('MANAGER', invoice, { decision: 'CONFORMITY', cause: 'NET_AMOUNT' });
    const badCause = await register('MANAGER', invoice, { decision: 'DISCONFORMITY', cause: 'OTRA', reason: 'x' });
    const bySupplier = await register('SUPPLIER', invoice, { decision: 'CONFORMITY' });
    const disconformity = await register('MANAGER', invoice, {
      decision: 'DISCONFORMITY',
      cause: 'NET_AMOUNT',
      reason: 'No descuenta la nota de crédito acordada.',
    });
    const second = await register('MANAGER', invoice, {
      decision: 'DISCONFORMITY',
      cause: 'PAYMENT_TERM',
      reason: 'x',
    });
    const corrected = await register('MANAGER', invoice, { decision: 'CONFORMITY' });

    // Assess
    expectError(noCause, 400, 'ERROR_ACQUIRER_DISCONFORMITY_WITHOUT_CAUSE');
    expectError(noReason, 400, 'ERROR_ACQUIRER_DISCONFORMITY_WITHOUT_REASON');
    expectError(causeWithConformity, 400, 'ERROR_INVALID_PARAMETER');
    expect(badCause.status).toBe(400);
    expectError(bySupplier, 403, 'ERROR_FORBIDDEN');
    expect(disconformity.status).toBe(200);
    expect(disconformity.body.acquirerConformity).toMatchObject({
      state: 'DISCONFORMITY',
      answerableUntil: disconformity.body.acquirerConformity!.deadline,
    });
    expectError(second, 409, 'ERROR_ACQUIRER_DISCONFORMITY_ALREADY_REGISTERED');
    expect(corrected.status).toBe(200);
    expect(corrected.body.acquirerConformity?.state).toBe('CONFORMITY');
    expect((corrected.body as InvoiceDetail).statusHistory.map((entry) => entry.title).slice(-2)).toEqual([
      'Disconformidad registrada (Ley 29623)',
      'Conformidad registrada (Ley 29623)',
    ]);
    const told =
      `${company.name} registró su disconformidad con la factura ${invoice.id} (Ley 29623). ` +
      'Causal: Monto neto pendiente de pago. Motivo: No descuenta la nota de crédito acordada.';
    await until(
      async () => {
        const texts = await feedAbout('SUPPLIER', SUPPLIER.taxId, invoice);
        return texts.includes(told);
      },
      { message: 'the supplier told of the disconformity', timeout: 20_000 },
    );
    const mails = await until(
      async () => {
        const found = (await mailbox()).filter((mail) => mail.text.includes(told));
        return found.length > 0 && found;
      },
      { message: 'the disconformity e-mail', timeout: 20_000 },
    );
    expect(mails.map((mail) => mail.to[0])).toContain(supplierEmail);
    expect(mails.filter((mail) => mail.to[0] === supplierEmail)).toHaveLength(1);
  });

  it('completing the invoice answers its clock with the days left, as every read does', async () => {
    const invoice = await creditInvoiceFixture({ client: company, supplier: SUPPLIER, receivedDaysAgo: 3 });
    const token = await tokenOf('MANAGER');
    const attachment = await uploadAs(token, 'ATTACHMENT', MINIMAL_PDF, 'application/pdf', 'sustento.pdf');
    const office = OFFICE_LOCATIONS[company.taxId]![0]!;

    const completed = await call<InvoiceDetail>(routes.updateInvoice, {
      token,
      path: pathOf(invoice),
      body: {
        operationType: 'WITHOUT_PURCHASE_ORDER',
        responsibleId: EMPLOYEES[company.taxId]![0]!.id,
        officeId: office.office,
        locationId: office.id,
        attachments: [attachment],
      },
    });

    expect(completed.status).toBe(200);
    expect(completed.body.status).toBe('COMPLETED');
    expect(completed.body.acquirerConformity).toMatchObject({ state: 'OPEN', daysLeft: 5 });
  });

  it('two staff registering conformity at once: one is recorded, the other is refused as irrevocable', async () => {
    const invoice = await creditInvoiceFixture({ client: company, supplier: SUPPLIER, receivedDaysAgo: 3 });

    const answers = await Promise.all([
      register('MANAGER', invoice, { decision: 'CONFORMITY' }),
      register('ADMIN', invoice, { decision: 'CONFORMITY' }),
    ]);

    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body.errors[0].code).toBe(
      'ERROR_ACQUIRER_CONFORMITY_IRREVOCABLE',
    );
    const detail = await detailOf(invoice);
    expect(detail.acquirerConformity?.answers).toHaveLength(1);
    expect(detail.statusHistory.filter((entry) => entry.title === 'Conformidad registrada (Ley 29623)')).toHaveLength(
      1,
    );
  });

  it('nothing after the period: a disconformity left unanswered past its last day refuses the late conformity', async () => {
    // Prepare: disconformity registered within the period, then the period ran out (the job leaves it: no step)
    const invoice = await creditInvoiceFixture({ client: company, supplier: SUPPLIER, receivedDaysAgo: 12 });
    const stored = (await table().get(keys.invoice(invoice.supplierId, invoice.type, invoice.id)))!;
    const at = new Date(Date.parse(invoice.receivedAt) + 86_400_000).toISOString();
    const disconformity = {
      ...invoice.acquirerConformity!,
      state: 'DISCONFORMITY' as const,
      answers: [
        {
          decision: 'DISCONFORMITY' as const,
          cause: 'PAYMENT_TERM' as const,
          reason: 'Plazo distinto',
          at,
          by: 'g@x.pe',
        },
      ],
    };
    await table().put({ ...stored, acquirerConformity: disconformity });
    await table().put(conformityClockRecord(invoice, disconformity, { revision: 2, at: new Date(at) }));

    // Act
    const late = await register('MANAGER', invoice, { decision: 'CONFORMITY' });

    // Assess
    expectError(late, 409, 'ERROR_ACQUIRER_CONFORMITY_PERIOD_ENDED');
    expect(late.body.message).toBe(
      `El plazo para responder venció el ${formatDate(invoice.acquirerConformity!.deadline)}: ya no puede registrarse una respuesta en SUNAT ni en el portal.`,
    );
  });
});

describe('the scheduled job, as the stage’s clock moves', () => {
  const company = CLIENTS[2]!;
  // The invoice's responsible has an account of the company (by the employee directory's e-mail); another staff
  // account of the company must not get the reminders.
  const responsible = { id: 'EZ9001', fullName: 'Lucía Ramos Paz', office: 'Sede Central' };
  const responsibleEmail = `lucia.ramos.${Date.now()}@grupoandino.pe`;
  const otherStaffEmail = `otro.gestor.${Date.now()}@grupoandino.pe`;

  afterAll(async () => {
    await putStageClockBack();
    // The employee directory of the company is the seed's again (reference-data.test.ts compares it).
    await table().delete(keys.employee(company.taxId, responsible.id));
  });

  // Longer than the file's other tests: the stage's job and the test's own pass over every due clock of the shared
  // table, other files' invoices among them, a hundred per pass and one at a time; in a whole `npm test` this took
  // over 30 s once (2026-11-29), against a second or two alone.
  it('reminds the responsible two days before and on the last day, exactly once; presumes the conformity once, telling both sides', async () => {
    // Prepare: received yesterday (its last day 7 days from now), the responsible and the company's accounts
    await table().put({
      ...keys.employee(company.taxId, responsible.id),
      ...responsible,
      active: true,
      email: responsibleEmail,
    });
    for (const [userId, email] of [
      [`user-${responsibleEmail}`, responsibleEmail],
      [`user-${otherStaffEmail}`, otherStaffEmail],
    ] as const) {
      await table().put({ ...keys.recipient(company.taxId, userId), userId, email, canReceiveEmails: true });
    }
    const invoice = await creditInvoiceFixture({
      client: company,
      supplier: SUPPLIER,
      receivedDaysAgo: 1,
      responsible,
    });
    const deadline = invoice.acquirerConformity!.deadline;
    const dd = formatDate(deadline);
    const dueSoon = `Quedan 2 días para expresar en la Plataforma de Confirmación de SUNAT la conformidad o disconformidad de ${company.name} con la factura ${invoice.id} de ${SUPPLIER.name}: el plazo vence el ${dd}.`;
    const dueToday = `Hoy ${dd} vence el plazo para expresar en la Plataforma de Confirmación de SUNAT la conformidad o disconformidad de ${company.name} con la factura ${invoice.id}`;
    const presumed = `Venció el ${dd} el plazo sin respuesta de ${company.name}: se presume su conformidad con la factura ${invoice.id} de ${SUPPLIER.name} (Ley 29623).`;
    const mailsAbout = async (text: string) => (await mailbox()).filter((mail) => mail.text.includes(text));
    const countersBefore = (await table().get(keys.dashboard(company.taxId, 'ALL'))) ?? {};

    // Act: today nothing is due
    await runConformityClock();
    expect(await feedAbout('CLIENT', company.taxId, invoice)).toEqual([]);

    // Act: five days later it is two days before the last day; the job runs three times, two of them at once
    await moveStageClock(5);
    await Promise.all([conformityClockJob().run(), conformityClockJob().run()]);
    await runConformityClock();

    // Assess: one reminder, in the company's feed and to the responsible only
    const soon = await until(
      async () => {
        const mails = await mailsAbout(dueSoon);
        return mails.length > 0 && mails;
      },
      { message: 'the two-day reminder e-mail', timeout: 20_000 },
    );
    expect(soon.map((mail) => mail.to)).toEqual([[responsibleEmail]]);
    expect((await feedAbout('CLIENT', company.taxId, invoice)).filter((text) => text.startsWith(dueSoon))).toHaveLength(
      1,
    );
    expect(await feedAbout('SUPPLIER', SUPPLIER.taxId, invoice)).toEqual([]);
    expect((await detailOf(invoice)).acquirerConformity).toMatchObject({ state: 'OPEN', daysLeft: 2 });

    // Act: the last day
    await moveStageClock(2);
    await Promise.all([conformityClockJob().run(), runConformityClock()]);

    // Assess
    await until(
      async () => {
        const mails = await mailsAbout(dueToday);
        return mails.length > 0;
      },
      { message: 'the last-day reminder e-mail', timeout: 20_000 },
    );
    expect((await mailsAbout(dueToday)).map((mail) => mail.to)).toEqual([[responsibleEmail]]);
    expect((await detailOf(invoice)).acquirerConformity).toMatchObject({ state: 'OPEN', daysLeft: 0 });

    // Act: the last day ended; two runs at once, and the stage's own
    await moveStageClock(1);
    await Promise.all([conformityClockJob().run(), conformityClockJob().run()]);
    await runConformityClock();

    // Assess: presumed once, in the history, both sides told (feed and e-mail), the counters moved
    const detail = await detailOf(invoice);
    expect(detail.acquirerConformity).toMatchObject({
      state: 'PRESUMED_CONFORMITY',
      daysLeft: -1,
      answerableUntil: null,
    });
    const entries = detail.statusHistory.filter((entry) => entry.title === 'Conformidad presunta (Ley 29623)');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ status: 'PENDING', by: null });
    expect(entries[0]!.additionalMessage).toContain(`Venció el ${dd} el plazo de 8 días`);
    await until(
      async () => {
        const texts = await feedAbout('SUPPLIER', SUPPLIER.taxId, invoice);
        return texts.includes(presumed);
      },
      { message: 'the supplier told of the presumed conformity', timeout: 20_000 },
    );
    // The staff's presumed conformity waits for their daily digest (ADR 0050): in the company's digest log once, not
    // in its feed.
    const logged = await until(
      async () => {
        const texts = await digestLogAbout(company.taxId, invoice);
        return texts.includes(presumed) && texts;
      },
      { message: "the company's digest log", timeout: 20_000 },
    );
    expect(logged.filter((text) => text === presumed)).toHaveLength(1);
    expect((await feedAbout('CLIENT', company.taxId, invoice)).filter((text) => text === presumed)).toEqual([]);
    expect((await feedAbout('SUPPLIER', SUPPLIER.taxId, invoice)).filter((text) => text === presumed)).toHaveLength(1);
    const told = await until(
      async () => {
        const mails = await mailsAbout(presumed);
        return mails.some((mail) => mail.to[0] === supplierEmail) && mails;
      },
      { message: 'the presumed conformity e-mail', timeout: 20_000 },
    );
    // The supplier's accounts with reception on, once each; the staff read it in the next morning's digest
    // (ADR 0050), not in an e-mail now.
    expect(told.filter((mail) => mail.to[0] === supplierEmail)).toHaveLength(1);
    for (const email of [otherStaffEmail, responsibleEmail]) {
      expect(told.filter((mail) => mail.to[0] === email)).toHaveLength(0);
    }
    // No reminder twice, whatever ran.
    expect(await mailsAbout(dueSoon)).toHaveLength(1);
    expect(await mailsAbout(dueToday)).toHaveLength(1);
    // The dashboard's counters moved with it: from por vencer to vencidas (clocks of earlier runs left running, if
    // any, moved the same way at the same time).
    const counters = (await table().get(keys.dashboard(company.taxId, 'ALL'))) ?? {};
    const moved = (name: string) => Number(counters[name] ?? 0) - Number(countersBefore[name] ?? 0);
    expect(moved('acquirerConformityPresumed')).toBeGreaterThanOrEqual(1);
    expect(moved('acquirerConformityOpen')).toBe(-moved('acquirerConformityPresumed'));
    const record = await table().get(keys.acquirerConformity(invoice.supplierId, invoice.type, invoice.id));
    expect(record).toMatchObject({
      state: 'PRESUMED_CONFORMITY',
      step: null,
      remindersSent: ['REMIND_TWO_DAYS', 'REMIND_LAST_DAY'],
    });
    // Presumed is irrevocable, and listed as vencida.
    expectError(
      await register('ADMIN', invoice, { decision: 'DISCONFORMITY', cause: 'NET_AMOUNT', reason: 'x' }),
      409,
      'ERROR_ACQUIRER_CONFORMITY_IRREVOCABLE',
    );
    const listed = await call<{ items: InvoiceSummary[] }>(routes.listInvoices, {
      token: await tokenOf('ADMIN'),
      query: { client: company.taxId, acquirerConformity: 'PRESUMED_CONFORMITY', limit: 100 },
    });
    expect(listed.body.items.map((item) => item.id)).toContain(invoice.id);
    // The responsible employee's directory e-mail is what the reminder went by; the seed's staff are unaffected.
    expect(EMPLOYEES[company.taxId]!.some((employee) => employee.id === responsible.id)).toBe(false);
    expect(SUPPLIERS.some((supplier) => supplier.taxId === SUPPLIER.taxId)).toBe(false);
  }, 120_000);
});
