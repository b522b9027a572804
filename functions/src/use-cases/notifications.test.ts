import { describe, expect, it } from 'vitest';
import type { NotificationMessage } from '@portal/shared';
import type { Email } from '../adapters/email.js';
import type { Caller } from '../http/caller.js';
import type { Recipient } from '../repositories/notifications.js';
import { fakeNotificationRepository } from '../repositories/notifications.fake.js';
import { makeNotifications } from './notifications.js';

const SUPPLIER = '20456178325';
const CLIENT = '20100070970';
const message = (change: Partial<NotificationMessage> = {}): NotificationMessage => ({
  event: 'INVOICE_REJECTED',
  supplierId: SUPPLIER,
  supplierName: 'Servicios Industriales Lima S.A.C.',
  client: CLIENT,
  clientName: 'Corporación Andina de Alimentos S.A.A.',
  invoiceType: 'FACTURA',
  invoiceId: 'F001-12',
  detail: 'Falta la HES.',
  occurredAt: '2026-11-20T10:00:00.000Z',
  ...change,
});
const supplierCaller = { sub: 'u1', level: 'SUPPLIER', taxIds: [SUPPLIER] } as unknown as Caller;

function setup(options: { failSends?: number; staffAccounts?: Recipient[] } = {}) {
  const sent: Email[] = [];
  let failures = options.failSends ?? 0;
  const { repository, feeds } = fakeNotificationRepository(
    {
      [SUPPLIER]: [
        { userId: 'u1', email: 'ana@proveedor.pe', canReceiveEmails: true },
        { userId: 'u2', email: 'no-mail@proveedor.pe', canReceiveEmails: false },
      ],
      [CLIENT]: [{ userId: 'm1', email: 'gestor@grupo.pe', canReceiveEmails: true }, ...(options.staffAccounts ?? [])],
    },
    { [`${CLIENT}#E1002`]: 'luis.paredes@grupo.pe', [`${CLIENT}#E1003`]: 'sin.cuenta@grupo.pe' },
  );
  const notifications = makeNotifications({
    repository,
    mailer: {
      async send(email) {
        if (failures-- > 0) throw new Error('SES unavailable');
        sent.push(email);
      },
    },
    clock: () => new Date('2026-11-21T00:00:00.000Z'),
    portalUrl: 'https://proveedores.example.pe',
  });
  return { notifications, sent, feeds };
}

describe('delivering a notification', () => {
  it('writes the feed of each audience of the event and mails only recipients with reception on', async () => {
    const { notifications, sent, feeds } = setup();
    await notifications.deliver(message());
    expect([...feeds.keys()]).toEqual([`SUPPLIER#${SUPPLIER}`]);
    expect(sent.map((email) => email.to)).toEqual(['ana@proveedor.pe']);
    expect(sent[0]!.text).toContain('rechazó la factura F001-12. Motivo: Falta la HES.');
    expect(sent[0]!.html).toContain('https://proveedores.example.pe');
  });

  it('links the e-mail to the invoice itself, each path segment encoded', async () => {
    const { notifications, sent } = setup();
    await notifications.deliver(message({ invoiceType: 'NOTA_DE_CREDITO', invoiceId: 'FC01/ 7' }));
    const url = `https://proveedores.example.pe/invoices/${SUPPLIER}/NOTA_DE_CREDITO/FC01%2F%207`;
    expect(sent[0]!.text).toContain(`Ver el comprobante en el portal: ${url}`);
    expect(sent[0]!.html).toContain(`<a href="${url}">Ver el comprobante en el portal</a>`);
  });

  it.each([
    [true, 'Motivo: Falta la HES. Puede corregir y volver a enviar el comprobante desde el portal.'],
    [false, 'Motivo: Falta la HES. El rechazo es definitivo: el comprobante no puede volver a enviarse.'],
  ])('says after a rejection (retry allowed: %s) what the supplier may do', async (retryAllowed, expected) => {
    const { notifications, sent, feeds } = setup();
    await notifications.deliver(message({ retryAllowed }));
    expect(sent[0]!.text).toContain(expected);
    expect(sent[0]!.html).toContain(expected);
    expect(feeds.get(`SUPPLIER#${SUPPLIER}`)!.map((item) => item.message)).toEqual([
      `Corporación Andina de Alimentos S.A.A. rechazó la factura F001-12. ${expected}`,
    ]);
  });

  it('repeats nothing when the same event arrives twice', async () => {
    const { notifications, sent, feeds } = setup();
    await notifications.deliver(message({ event: 'INVOICE_RECEIVED', detail: null }));
    await notifications.deliver(message({ event: 'INVOICE_RECEIVED', detail: null }));
    expect(sent.map((email) => email.to)).toEqual(['ana@proveedor.pe']);
    expect([...feeds.values()].map((feed) => feed.length)).toEqual([1, 1]);
  });

  it.each(['ZIP', 'EMAIL'] as const)(
    'tells the supplier of a document received by %s in the feed only (the channel answers them), and the staff in their feeds (their digest tells them)',
    async (channel) => {
      const { notifications, sent, feeds } = setup();
      await notifications.deliver(message({ event: 'INVOICE_RECEIVED', detail: null, channel }));
      expect(sent).toEqual([]);
      expect([...feeds.keys()].sort()).toEqual([`CLIENT#${CLIENT}`, `SUPPLIER#${SUPPLIER}`]);
      // What the supplier must know next (SUNAT refused it) is e-mailed to it as for any document.
      await notifications.deliver(message({ event: 'SUNAT_INVALID', detail: 'No existe en SUNAT.', channel }));
      expect(sent.map((email) => email.to)).toEqual(['ana@proveedor.pe']);
    },
  );

  it('e-mails the staff nothing of an invoice happy life, and its supplier three times: received, approved, paid', async () => {
    const { notifications, sent, feeds } = setup();
    const life: NotificationMessage['event'][] = [
      'INVOICE_RECEIVED',
      'SUNAT_VALID',
      'INVOICE_APPROVED',
      'PAYMENT_SCHEDULED',
      'INVOICE_PAID',
    ];
    for (const [index, event] of life.entries()) {
      await notifications.deliver(message({ event, detail: null, occurredAt: `2026-11-20T1${index}:00:00.000Z` }));
    }
    expect(sent.map((email) => email.to)).toEqual(['ana@proveedor.pe', 'ana@proveedor.pe', 'ana@proveedor.pe']);
    expect(sent.map((email) => email.text.split('\n')[0])).toEqual([
      'Se recibió la factura F001-12 de Servicios Industriales Lima S.A.C. para Corporación Andina de Alimentos S.A.A.',
      'Corporación Andina de Alimentos S.A.A. aprobó la factura F001-12.',
      'Corporación Andina de Alimentos S.A.A. pagó la factura F001-12.',
    ]);
    // The feeds still show every event at once, each with its kind for the digest.
    expect(feeds.get(`SUPPLIER#${SUPPLIER}`)!.map((item) => item.event)).toEqual(life);
    expect(feeds.get(`CLIENT#${CLIENT}`)!.map((item) => item.event)).toEqual([
      'INVOICE_RECEIVED',
      'SUNAT_VALID',
      'INVOICE_PAID',
    ]);
  });

  it.each(['MIRO_FAILED', 'INVOICE_MESSAGE_FROM_SUPPLIER', 'CDR_CONTRADICTION'] as const)(
    'e-mails the staff at once what needs a person now: %s',
    async (event) => {
      const { notifications, sent } = setup();
      await notifications.deliver(message({ event, detail: 'detalle' }));
      expect(sent.map((email) => email.to)).toEqual(['gestor@grupo.pe']);
    },
  );

  it('fails the delivery when a mail cannot be sent, and sends it on the retry', async () => {
    const { notifications, sent } = setup({ failSends: 1 });
    await expect(notifications.deliver(message())).rejects.toThrow('SES unavailable');
    await notifications.deliver(message());
    expect(sent.map((email) => email.to)).toEqual(['ana@proveedor.pe']);
  });
});

describe('Ley 29623 reminders', () => {
  const staffAccounts = [{ userId: 'm2', email: 'Luis.Paredes@grupo.pe', canReceiveEmails: true }];
  const reminder = (responsibleId: string | null) =>
    message({ event: 'ACQUIRER_CONFORMITY_DUE_SOON', detail: '2026-11-28', responsibleId });

  it('go to the company feed and by e-mail to the invoice responsible only', async () => {
    const { notifications, sent, feeds } = setup({ staffAccounts });
    await notifications.deliver(reminder('E1002'));
    expect([...feeds.keys()]).toEqual([`CLIENT#${CLIENT}`]);
    expect(sent.map((email) => email.to)).toEqual(['Luis.Paredes@grupo.pe']);
    expect(sent[0]!.text).toContain(
      'Quedan 2 días para expresar en la Plataforma de Confirmación de SUNAT la conformidad o disconformidad de ' +
        'Corporación Andina de Alimentos S.A.A. con la factura F001-12 de Servicios Industriales Lima S.A.C.: el ' +
        'plazo vence el 28/11/26. Sin respuesta, la conformidad se presume (Ley 29623).',
    );
  });

  it.each([
    ['no responsible', null],
    ['a responsible without an account', 'E1003'],
    ['a responsible unknown to the directory', 'E9999'],
  ])('go to every staff account of the company with %s', async (_case, responsibleId) => {
    const { notifications, sent } = setup({ staffAccounts });
    await notifications.deliver(reminder(responsibleId));
    expect(sent.map((email) => email.to).sort()).toEqual(['Luis.Paredes@grupo.pe', 'gestor@grupo.pe']);
  });
});

describe('reading notifications', () => {
  it('shows them newest first, unread until marked, and counts what was marked', async () => {
    const { notifications } = setup();
    await notifications.deliver(message({ occurredAt: '2026-11-19T10:00:00.000Z' }));
    await notifications.deliver(
      message({ event: 'INVOICE_PAID', detail: '2026-11-20', occurredAt: '2026-11-20T10:00:00.000Z' }),
    );
    const before = await notifications.list(supplierCaller);
    expect(before.items.map((n) => [n.registeredAt, n.isRead])).toEqual([
      ['2026-11-20T10:00:00.000Z', false],
      ['2026-11-19T10:00:00.000Z', false],
    ]);
    expect(await notifications.markAsRead(supplierCaller, '2026-11-19T12:00:00.000Z')).toEqual({ updated: 1 });
    expect((await notifications.list(supplierCaller)).items.map((n) => n.isRead)).toEqual([false, true]);
    // A mark in the future is clamped to now.
    expect(await notifications.markAsRead(supplierCaller, '2030-01-01T00:00:00.000Z')).toEqual({ updated: 1 });
    expect((await notifications.list(supplierCaller)).items.every((n) => n.isRead)).toBe(true);
  });
});
