import { describe, expect, it } from 'vitest';
import type { Client, NotificationMessage } from '@portal/shared';
import type { Email } from '../adapters/email.js';
import type { Recipient } from '../repositories/notifications.js';
import { fakeNotificationRepository } from '../repositories/notifications.fake.js';
import { notificationCalls } from '../use-cases/notifications/notification-calls.fake.js';
import { digestWindow, makeDailyDigest } from './daily-digest.js';

const ANDINA = { taxId: '20100070970', name: 'Corporación Andina de Alimentos S.A.A.' };
const PACIFICO = { taxId: '20100130204', name: 'Pacífico Industrial S.A.' };
const SUPPLIER = { supplierId: '20456178325', supplierName: 'Servicios Industriales Lima S.A.C.' };
const PORTAL = 'https://proveedores.example.pe';
/** 07:00 Lima on 21/11/2026: the scheduled run. Its digest tells 20/11 06:55 to 21/11 06:55 (Lima). */
const RUN_AT = new Date('2026-11-21T12:00:00.000Z');

const staff: Record<string, Recipient[]> = {
  [ANDINA.taxId]: [
    { userId: 'm1', email: 'gestor@andina.pe', canReceiveEmails: true },
    { userId: 'm2', email: 'revisora@andina.pe', canReceiveEmails: true },
    // Reception off, or a disabled account (the index says canReceiveEmails false for both).
    { userId: 'm3', email: 'sin-correo@andina.pe', canReceiveEmails: false },
  ],
  [PACIFICO.taxId]: [
    { userId: 'm1', email: 'gestor@andina.pe', canReceiveEmails: true },
    { userId: 'p1', email: 'tesoreria@pacifico.pe', canReceiveEmails: true },
  ],
  [SUPPLIER.supplierId]: [{ userId: 's1', email: 'ana@proveedor.pe', canReceiveEmails: true }],
};

const event = (
  kind: NotificationMessage['event'],
  invoiceId: string,
  occurredAt: string,
  client: { taxId: string; name: string } = ANDINA,
): NotificationMessage => ({
  event: kind,
  ...SUPPLIER,
  client: client.taxId,
  clientName: client.name,
  invoiceType: 'FACTURA',
  invoiceId,
  detail: kind === 'INVOICE_PAID' ? '2026-11-20' : null,
  occurredAt,
});

function setup(options: { failSendTo?: string; clients?: { taxId: string; name: string }[]; maxItems?: number } = {}) {
  const { repository, feeds, preferences } = fakeNotificationRepository(staff);
  const sent: Email[] = [];
  let clock = RUN_AT;
  let failSendTo = options.failSendTo ?? null;
  const mailer = {
    async send(email: Email) {
      if (email.to === failSendTo) throw new Error('SES unavailable');
      sent.push(email);
    },
  };
  // Events reach the feeds through the notifications worker, as in the stage.
  const notifications = notificationCalls({ repository, mailer, clock: () => clock, portalUrl: PORTAL });
  const clients = (options.clients ?? [ANDINA, PACIFICO]).map((client): Client => ({
    ...client,
    address: '',
    logo: null,
    system_name: '',
  }));
  const digest = (listLimit?: number) =>
    makeDailyDigest({
      clients: { listAll: async () => clients },
      repository,
      mailer,
      clock: () => clock,
      portalUrl: PORTAL,
      log: { info: () => undefined, error: () => undefined },
      ...(listLimit ? { listLimit } : {}),
      ...(options.maxItems ? { maxItems: options.maxItems } : {}),
    });
  return {
    feeds,
    preferences,
    sent,
    digest,
    async deliver(...messages: NotificationMessage[]) {
      for (const message of messages) await notifications.deliver(message);
    },
    /** Only the digests (the supplier's immediate e-mails are sent too). */
    digests: () => sent.filter((email) => email.subject.includes('Resumen diario')),
    at(date: Date) {
      clock = date;
    },
    sesBack() {
      failSendTo = null;
    },
  };
}

describe('the window of a digest', () => {
  it('is the 24 h ending at 06:55 Lima of the latest such time, named by that Lima day', () => {
    expect(digestWindow(RUN_AT)).toEqual({
      day: '2026-11-21',
      from: '2026-11-20T11:55:00.000Z',
      to: '2026-11-21T11:55:00.000Z',
    });
    // A run before 06:55 Lima (a retry, a run by hand at night) sends the day before's digest.
    expect(digestWindow(new Date('2026-11-21T04:30:00.000Z')).day).toBe('2026-11-20');
    expect(digestWindow(new Date('2026-11-21T11:55:00.000Z')).day).toBe('2026-11-21');
  });
});

describe('the staff daily digest', () => {
  it('sends each staff account with reception on one e-mail per company: counts, the invoices with links, the list', async () => {
    const s = setup();
    await s.deliver(
      event('INVOICE_RECEIVED', 'F001-1', '2026-11-20T14:00:00.000Z'),
      event('SUNAT_VALID', 'F001-1', '2026-11-20T14:01:00.000Z'),
      event('INVOICE_RECEIVED', 'F001-2', '2026-11-20T15:00:00.000Z'),
      event('SUNAT_INVALID', 'F001-2', '2026-11-20T15:01:00.000Z'),
      event('INVOICE_PAID', 'F001-0', '2026-11-21T09:00:00.000Z'),
      // Not routine: e-mailed at once, not in the digest.
      event('MIRO_FAILED', 'F001-1', '2026-11-20T16:00:00.000Z'),
      // Outside the window: the day before, and after 06:55 Lima of the run's day.
      event('INVOICE_RECEIVED', 'F001-8', '2026-11-20T11:54:59.000Z'),
      event('INVOICE_RECEIVED', 'F001-9', '2026-11-21T11:56:00.000Z'),
    );
    const immediate = s.sent.length;

    expect(await s.digest().run()).toEqual({ day: '2026-11-21', companies: 1, emailed: 2 });
    const digests = s.sent.slice(immediate);
    expect(digests.map((mail) => mail.to)).toEqual(['gestor@andina.pe', 'revisora@andina.pe']);
    const [mail] = digests;
    expect(mail!.subject).toBe(
      'Portal de Proveedores · Resumen diario del 21/11/26 · Corporación Andina de Alimentos S.A.A.',
    );
    expect(mail!.text).toContain('entre el 20/11/26 06:55 y el 21/11/26 06:55 (hora de Lima)');
    expect(mail!.text).toContain('- 2 comprobantes recibidos\n- 1 válido en SUNAT\n- 1 no válido en SUNAT\n- 1 pagado');
    expect(mail!.text).toContain(
      'Comprobantes:\n' +
        `- Factura F001-0 de Servicios Industriales Lima S.A.C.: pagado\n  ${PORTAL}/invoices/20456178325/FACTURA/F001-0\n` +
        '- Factura F001-2 de Servicios Industriales Lima S.A.C.: recibido, no válido en SUNAT\n' +
        `  ${PORTAL}/invoices/20456178325/FACTURA/F001-2\n` +
        '- Factura F001-1 de Servicios Industriales Lima S.A.C.: recibido, válido en SUNAT\n' +
        `  ${PORTAL}/invoices/20456178325/FACTURA/F001-1\n\n`,
    );
    expect(mail!.text).toContain(`Ver todos los comprobantes en el portal: ${PORTAL}/invoices`);
    expect(mail!.text).not.toMatch(/F001-[89]/);
    expect(mail!.html).toContain(`<a href="${PORTAL}/invoices/20456178325/FACTURA/F001-2">`);
    expect(mail!.html).toContain(`<a href="${PORTAL}/invoices">Ver todos los comprobantes en el portal</a>`);
  });

  it('sends nothing for a day with no routine event, and nothing to a company whose day had none', async () => {
    const s = setup();
    await s.deliver(event('ACQUIRER_CONFORMITY_DUE_TODAY', 'F001-1', '2026-11-20T14:00:00.000Z'));
    const immediate = s.sent.length;
    expect(await s.digest().run()).toEqual({ day: '2026-11-21', companies: 0, emailed: 0 });
    expect(s.sent.length).toBe(immediate);
  });

  it('sends one digest per company to a person in two companies, each with its own company’s invoices', async () => {
    const s = setup();
    await s.deliver(
      event('INVOICE_RECEIVED', 'F001-1', '2026-11-20T14:00:00.000Z', ANDINA),
      event('INVOICE_RECEIVED', 'F002-7', '2026-11-20T14:00:00.000Z', PACIFICO),
      event('INVOICE_RECEIVED', 'F002-8', '2026-11-20T14:05:00.000Z', PACIFICO),
    );
    expect(await s.digest().run()).toMatchObject({ companies: 2, emailed: 4 });
    const digests = s.digests();
    expect(digests.map((mail) => [mail.to, mail.subject.split(' · ').at(-1)])).toEqual([
      ['gestor@andina.pe', ANDINA.name],
      ['revisora@andina.pe', ANDINA.name],
      ['gestor@andina.pe', PACIFICO.name],
      ['tesoreria@pacifico.pe', PACIFICO.name],
    ]);
    expect(digests[0]!.text).toContain('1 comprobante recibido');
    expect(digests[0]!.text).not.toContain('F002-');
    expect(digests[2]!.text).toContain('2 comprobantes recibidos');
    expect(digests[2]!.text).not.toContain('F001-1');
  });

  it('never sends a user the same day’s digest twice: a run that died halfway, then the retry', async () => {
    const s = setup({ failSendTo: 'revisora@andina.pe' });
    await s.deliver(event('INVOICE_RECEIVED', 'F001-1', '2026-11-20T14:00:00.000Z', ANDINA));
    await s.deliver(event('INVOICE_RECEIVED', 'F002-7', '2026-11-20T14:00:00.000Z', PACIFICO));
    // The first company's second e-mail fails: the run goes on with the other company, and fails at the end.
    await expect(s.digest().run()).rejects.toThrow(`Resumen diario no enviado a ${ANDINA.taxId}`);
    expect(s.digests().map((mail) => mail.to)).toEqual([
      'gestor@andina.pe',
      'gestor@andina.pe',
      'tesoreria@pacifico.pe',
    ]);

    // The retry (SES back) sends the one that failed, and nothing else; a later run that day sends nothing.
    s.sesBack();
    const again = s.digest();
    expect(await again.run()).toMatchObject({ emailed: 1 });
    expect(s.digests().map((mail) => mail.to)).toEqual([
      'gestor@andina.pe',
      'gestor@andina.pe',
      'tesoreria@pacifico.pe',
      'revisora@andina.pe',
    ]);
    s.at(new Date('2026-11-21T20:00:00.000Z'));
    expect(await again.run()).toMatchObject({ day: '2026-11-21', emailed: 0 });
    expect(s.digests()).toHaveLength(4);

    // The next day has nothing new: no digest.
    s.at(new Date('2026-11-22T12:00:00.000Z'));
    expect(await again.run()).toEqual({ day: '2026-11-22', companies: 0, emailed: 0 });
  });

  it('lists at most the cap of invoices, newest first, and says how many more there are', async () => {
    const s = setup({ clients: [ANDINA] });
    for (let n = 1; n <= 7; n += 1) {
      await s.deliver(event('INVOICE_RECEIVED', `F001-${n}`, `2026-11-20T14:0${n}:00.000Z`));
      await s.deliver(event('SUNAT_VALID', `F001-${n}`, `2026-11-20T15:0${n}:00.000Z`));
    }
    await s.digest(5).run();
    const [mail] = s.digests();
    expect(mail!.text).toContain('- 7 comprobantes recibidos\n- 7 válidos en SUNAT');
    const listed = [...mail!.text.matchAll(/^- Factura (F001-\d+)/gm)].map((match) => match[1]);
    expect(listed).toEqual(['F001-7', 'F001-6', 'F001-5', 'F001-4', 'F001-3']);
    expect(mail!.text).toContain('\ny 2 más.');
    expect(mail!.html).toContain('<p>y 2 más.</p>');
  });

  it('reads a bounded number of feed items per company, and says the counts are partial when the day had more', async () => {
    const s = setup({ clients: [ANDINA], maxItems: 3 });
    for (let n = 1; n <= 4; n += 1) {
      await s.deliver(event('INVOICE_RECEIVED', `F001-${n}`, `2026-11-20T14:0${n}:00.000Z`));
    }
    await s.digest().run();
    const [mail] = s.digests();
    expect(mail!.text).toContain('- 3 comprobantes recibidos');
    expect(mail!.text).toContain('el resumen cuenta los primeros; el portal los muestra todos.');
  });

  it('leaves out feed items written before the digest existed (no kind: they were e-mailed one by one)', async () => {
    const s = setup({ clients: [ANDINA] });
    s.feeds.set(`CLIENT#${ANDINA.taxId}`, [
      {
        id: 'old',
        registeredAt: '2026-11-20T14:00:00.000Z',
        message: 'Se recibió la factura F001-5 …',
        reference: { issuerTaxId: SUPPLIER.supplierId, invoiceType: 'FACTURA', invoiceId: 'F001-5' },
      },
    ]);
    expect(await s.digest().run()).toMatchObject({ companies: 0, emailed: 0 });
  });
});

describe('the digest in the staff feed and their preferences', () => {
  it("writes the day's one notice to the company's feed, once, instead of a notice per routine event", async () => {
    const s = setup({ clients: [ANDINA] });
    await s.deliver(
      event('INVOICE_RECEIVED', 'F001-1', '2026-11-20T14:00:00.000Z'),
      event('INVOICE_RECEIVED', 'F001-2', '2026-11-20T15:00:00.000Z'),
      event('SUNAT_INVALID', 'F001-2', '2026-11-20T15:01:00.000Z'),
    );
    expect(s.feeds.get(`CLIENT#${ANDINA.taxId}`)).toBeUndefined();
    await s.digest().run();
    await s.digest().run();
    expect(s.feeds.get(`CLIENT#${ANDINA.taxId}`)).toEqual([
      expect.objectContaining({
        kind: 'DAILY_DIGEST',
        reference: null,
        message:
          'Resumen diario del 21/11/26: 2 comprobantes recibidos, 1 no válido en SUNAT. Vea los comprobantes en la lista.',
      }),
    ]);
  });

  it('is not e-mailed to a staff account that turned the digest e-mail off', async () => {
    const s = setup({ clients: [ANDINA] });
    s.preferences.set('m2', { feedOff: [], emailOff: ['DAILY_DIGEST'] });
    await s.deliver(event('INVOICE_RECEIVED', 'F001-1', '2026-11-20T14:00:00.000Z'));
    expect(await s.digest().run()).toMatchObject({ companies: 1, emailed: 1 });
    expect(s.digests().map((mail) => mail.to)).toEqual(['gestor@andina.pe']);
  });
});
