import { describe, expect, it } from 'vitest';
import type { NotificationMessage } from '@portal/shared';
import type { Email } from '../adapters/email.js';
import type { Caller } from '../http/caller.js';
import type { Recipient } from '../repositories/notifications.js';
import { fakeNotificationRepository } from '../repositories/notifications.fake.js';
import { notificationCalls } from './notifications/notification-calls.fake.js';

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
  const { repository, feeds, digestLogs, preferences } = fakeNotificationRepository(
    {
      [SUPPLIER]: [
        { userId: 'u1', email: 'ana@proveedor.pe', canReceiveEmails: true },
        { userId: 'u2', email: 'no-mail@proveedor.pe', canReceiveEmails: false },
      ],
      [CLIENT]: [{ userId: 'm1', email: 'gestor@grupo.pe', canReceiveEmails: true }, ...(options.staffAccounts ?? [])],
    },
    { [`${CLIENT}#E1002`]: 'luis.paredes@grupo.pe', [`${CLIENT}#E1003`]: 'sin.cuenta@grupo.pe' },
  );
  const notifications = notificationCalls({
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
  return { notifications, sent, feeds, digestLogs, preferences };
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
    const { notifications, sent, feeds, digestLogs } = setup();
    await notifications.deliver(message({ event: 'INVOICE_RECEIVED', detail: null }));
    await notifications.deliver(message({ event: 'INVOICE_RECEIVED', detail: null }));
    expect(sent.map((email) => email.to)).toEqual(['ana@proveedor.pe']);
    expect([...feeds.values()].map((feed) => feed.length)).toEqual([1]);
    expect(digestLogs.get(CLIENT)).toHaveLength(1);
  });

  it.each(['ZIP', 'EMAIL'] as const)(
    'groups a document received by %s into its channel one notice: no feed item or e-mail of its own, the staff told in their digest',
    async (channel) => {
      const { notifications, sent, feeds, digestLogs } = setup();
      for (const invoiceId of ['F001-1', 'F001-2', 'F001-3']) {
        await notifications.deliver(message({ event: 'INVOICE_RECEIVED', detail: null, channel, invoiceId }));
        // SUNAT's confirmation of each is the group's too: the supplier reads it in the list, not once per document.
        await notifications.deliver(message({ event: 'SUNAT_VALID', detail: null, channel, invoiceId }));
      }
      expect(sent).toEqual([]);
      expect([...feeds.keys()]).toEqual([]);
      expect(digestLogs.get(CLIENT)!.map((item) => `${item.event} ${item.reference?.invoiceId}`)).toEqual(
        ['F001-1', 'F001-2', 'F001-3'].flatMap((id) => [`INVOICE_RECEIVED ${id}`, `SUNAT_VALID ${id}`]),
      );
      // What the supplier must know next (SUNAT refused it) is told to it on its own, feed and e-mail, as for any document.
      await notifications.deliver(message({ event: 'SUNAT_INVALID', detail: 'No existe en SUNAT.', channel }));
      expect(sent.map((email) => email.to)).toEqual(['ana@proveedor.pe']);
      expect(feeds.get(`SUPPLIER#${SUPPLIER}`)!.map((item) => item.event)).toEqual(['SUNAT_INVALID']);
    },
  );

  it('e-mails the staff nothing of an invoice happy life, and its supplier three times: received, approved, paid', async () => {
    const { notifications, sent, feeds, digestLogs } = setup();
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
    // The supplier's feed shows every event at once; the staff's routine ones wait for their digest.
    expect(feeds.get(`SUPPLIER#${SUPPLIER}`)!.map((item) => item.event)).toEqual(life);
    expect(feeds.has(`CLIENT#${CLIENT}`)).toBe(false);
    expect(digestLogs.get(CLIENT)!.map((item) => item.event)).toEqual([
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

describe("a person's notification preferences", () => {
  const staffCaller = { sub: 'm1', level: 'MANAGER', taxIds: [CLIENT] } as unknown as Caller;

  it("start with every kind on, e-mail only for the kinds that are e-mailed, and the staff's routine ones as the digest", async () => {
    const { notifications } = setup();
    const supplier = (await notifications.preferences(supplierCaller)).items;
    expect(supplier.find((item) => item.kind === 'INVOICE_REJECTED')).toEqual({
      kind: 'INVOICE_REJECTED',
      label: 'Comprobante rechazado',
      feed: true,
      email: true,
    });
    expect(supplier.find((item) => item.kind === 'SUNAT_VALID')).toMatchObject({ feed: true, email: null });
    expect(supplier.map((item) => item.kind)).not.toContain('MIRO_FAILED');
    const staff = (await notifications.preferences(staffCaller)).items.map((item) => item.kind);
    expect(staff).toContain('DAILY_DIGEST');
    expect(staff).toContain('MIRO_FAILED');
    expect(staff).not.toContain('INVOICE_RECEIVED');
  });

  it('keep a kind the user turned off out of their feed and their e-mail, and only theirs', async () => {
    const { notifications, sent } = setup({
      staffAccounts: [{ userId: 'm2', email: 'otra@grupo.pe', canReceiveEmails: true }],
    });
    await notifications.savePreferences(staffCaller, {
      items: [{ kind: 'MIRO_FAILED', feed: false, email: false }],
    });
    await notifications.deliver(message({ event: 'MIRO_FAILED', detail: 'SAP no responde.' }));
    expect(sent.map((email) => email.to)).toEqual(['otra@grupo.pe']);
    expect((await notifications.list(staffCaller)).items).toEqual([]);
    const colleague = { sub: 'm2', level: 'MANAGER', taxIds: [CLIENT] } as unknown as Caller;
    expect((await notifications.list(colleague)).items).toHaveLength(1);
    // Left out of the next choice, the kind is on again.
    await notifications.savePreferences(staffCaller, { items: [] });
    expect((await notifications.list(staffCaller)).items).toHaveLength(1);
  });

  it.each([
    [{ kind: 'INVOICE_RECEIVED', feed: true, email: true }, 'items[0].kind', 'no es de su perfil'],
    [{ kind: 'MIRO_FAILED', feed: true, email: null }, 'items[0].email', 'true o false'],
    [{ kind: 'EXPORT_READY', feed: true, email: false }, 'items[0].email', 'debe ser null'],
  ] as const)('refuse a choice the caller cannot make (%o), in Spanish', async (item, parameter, reason) => {
    const { notifications } = setup();
    const refused = notifications.savePreferences(staffCaller, { items: [item] });
    await expect(refused).rejects.toMatchObject({
      statusCode: 400,
      errors: [{ code: 'ERROR_INVALID_PARAMETER', parameters: { parameter } }],
    });
    await expect(refused).rejects.toThrow(reason);
  });

  it('refuse a kind chosen twice', async () => {
    const { notifications } = setup();
    const item = { kind: 'INVOICE_PAID', feed: false, email: false } as const;
    await expect(notifications.savePreferences(supplierCaller, { items: [item, item] })).rejects.toThrow(
      'El valor de «items[1].kind» no es válido: el aviso «Comprobante pagado» se repite.',
    );
  });
});
