import { describe, expect, it } from 'vitest';
import {
  keys,
  notificationAbout,
  notificationText,
  routes,
  withCheckDigit,
  type Notification,
  type NotificationMessage,
} from '@portal/shared';
import { CLIENTS, SUPPLIERS, buildWorld } from '../support/tenant.js';
import { call, idTokenOf } from '../support/api.js';
import { mailbox, reviewFixture, sendTracked, table } from '../support/fixtures.js';
import { demoAccount, demoUser, stage } from '../support/stage.js';
import { until } from '../support/until.js';

const world = buildWorld();
const tokenOf = (role: 'SUPPLIER' | 'MANAGER') => idTokenOf(demoUser(role).username, demoUser(role).password);

async function feedOf(role: 'SUPPLIER' | 'MANAGER'): Promise<Notification[]> {
  return (await call<{ items: Notification[] }>(routes.listNotifications, { token: await tokenOf(role) })).body.items;
}

function eventAbout(
  invoice: (typeof world.invoices)[number],
  event: NotificationMessage['event'],
  detail: string | null,
) {
  return notificationAbout(event, invoice, detail, new Date());
}

describe('notifications', () => {
  it("writes an event to the supplier's feed and the company's digest log, e-mails the supplier once and the staff not (their daily digest tells them)", async () => {
    const invoice = world.invoices.find((i) => i.supplierId === SUPPLIERS[0]!.taxId && i.client === CLIENTS[0]!.taxId)!;
    const message = eventAbout(invoice, 'INVOICE_PAID', '2026-11-20');
    const expected = `${invoice.clientName} pagó la factura ${invoice.id} el 20/11/26.`;

    const handled = await sendTracked('notifications', message);
    const duplicateHandled = await sendTracked('notifications', message); // a redelivered or duplicated event

    const supplierFeed = await until(
      async () => {
        const items = await feedOf('SUPPLIER');
        return items.some((n) => n.message === expected) && items;
      },
      { message: 'the supplier feed', timeout: 20_000 },
    );
    // The staff's routine events wait for their daily digest (ADR 0050): kept in the company's digest log, once.
    const logged = await until(
      async () => {
        const items = (await table().partition(`DIGEST#CLIENT#${invoice.client}`)).filter(
          (item) => item.message === expected,
        );
        return items.length > 0 && items;
      },
      { message: "the company's digest log", timeout: 20_000 },
    );
    expect(logged).toHaveLength(1);
    expect((await feedOf('MANAGER')).filter((n) => n.message === expected)).toEqual([]);
    for (const feed of [supplierFeed]) {
      const matches = feed.filter((n) => n.message === expected);
      expect(matches).toHaveLength(1);
      expect(matches[0]).toMatchObject({
        isRead: false,
        reference: { issuerTaxId: invoice.supplierId, invoiceType: invoice.type, invoiceId: invoice.id },
      });
    }
    // The worker writes the feeds and then e-mails; other tests' e-mails arrive meanwhile, so only these are counted.
    const mailsAbout = async () => (await mailbox()).filter((mail) => mail.text.includes(expected));
    await until(
      async () => {
        const about = await mailsAbout();
        return about.length >= 1;
      },
      { message: 'the e-mail', timeout: 20_000 },
    );
    // Both deliveries handled whole: a duplicate, or a staff e-mail, would be in the mailbox by now.
    await handled();
    await duplicateHandled();
    const about = await mailsAbout();
    expect(about.map((mail) => mail.to[0])).toEqual([demoUser('SUPPLIER').username]);
    for (const mail of about) expect(mail.subject).toContain(invoice.id);
  });

  it('does not e-mail users whose reception is off, but still shows them the event', async () => {
    // The seed turns e-mail off for the second demo supplier.
    const other = demoAccount('proveedor2@demo.pe');
    const invoice = world.invoices.find((i) => i.supplierId === SUPPLIERS[1]!.taxId)!;
    const message = eventAbout(invoice, 'INVOICE_APPROVED', null);
    const handled = await sendTracked('notifications', message);
    const token = await idTokenOf(other.username, other.password);
    const expected = notificationText(message);
    await until(
      async () => {
        const items = (await call<{ items: Notification[] }>(routes.listNotifications, { token })).body.items;
        return items.some((n) => n.message === expected);
      },
      { message: 'the opted-out supplier feed', timeout: 20_000 },
    );
    // The delivery handled whole: an e-mail would be in the mailbox by now.
    await handled();
    expect((await mailbox()).filter((mail) => mail.text.includes(expected))).toEqual([]);
  });

  it('marks everything read up to now', async () => {
    const token = await tokenOf('SUPPLIER');
    await until(
      async () => {
        const items = await feedOf('SUPPLIER');
        return items.some((n) => !n.isRead);
      },
      { message: 'an unread notification', timeout: 20_000 },
    );
    const unread = (await feedOf('SUPPLIER')).filter((n) => !n.isRead).length;
    const marked = await call(routes.markNotificationsAsRead, { token, body: {} });
    expect(marked.status).toBe(200);
    expect(marked.body.updated).toBe(unread);
    expect((await feedOf('SUPPLIER')).every((n) => n.isRead)).toBe(true);
  });

  it.each([
    [true, '2070000300', 'Puede corregir y volver a enviar el comprobante desde el portal.'],
    [false, '2070000301', 'El rechazo es definitivo: el comprobante no puede volver a enviarse.'],
  ])(
    'tells the supplier about a rejection (retry allowed: %s): the reason, what it may do, and a link to the invoice',
    async (noRejection, ruc, outcome) => {
      const supplier = { taxId: withCheckDigit(ruc), name: 'Proveedor de Avisos S.A.C.' };
      const email = `avisos-${supplier.taxId}-${Date.now()}@demo.pe`;
      // An account of the supplier whose e-mail reception is on, as the user administration indexes it.
      await table().put({
        ...keys.recipient(supplier.taxId, `user-${email}`),
        userId: `user-${email}`,
        email,
        canReceiveEmails: true,
      });
      const f = await reviewFixture({ client: CLIENTS[0]!.taxId, clientName: CLIENTS[0]!.name, supplier, kind: null });
      const token = await idTokenOf(demoUser('MANAGER').username, demoUser('MANAGER').password);
      const path = { supplierId: supplier.taxId, invoiceType: 'FACTURA', invoiceId: f.invoice.id };
      const rejected = await call(routes.disapproveInvoice, {
        token,
        path,
        query: { noRejection: String(noRejection) },
        body: { reason: 'Falta la orden de compra.' },
      });
      expect(rejected.status).toBe(200);

      const expected = `${CLIENTS[0]!.name} rechazó la factura ${f.invoice.id}. Motivo: Falta la orden de compra. ${outcome}`;
      const feed = await until(
        async () => {
          const items = await table().partition(keys.feed('SUPPLIER', supplier.taxId));
          return items.length > 0 && items;
        },
        { message: 'the rejection notification', timeout: 20_000 },
      );
      expect(feed.map((item) => item.message)).toEqual([expected]);
      const [mail] = await until(
        async () => {
          const mails = (await mailbox()).filter((message) => message.to.includes(email));
          return mails.length > 0 && mails;
        },
        { message: 'the rejection e-mail', timeout: 20_000 },
      );
      const link = `${stage().webUrl}/invoices/${supplier.taxId}/FACTURA/${encodeURIComponent(f.invoice.id)}`;
      expect(mail!.text).toContain(expected);
      expect(mail!.text).toContain(`Ver el comprobante en el portal: ${link}`);
      expect(mail!.html).toContain(`<a href="${link}">`);
      // The only address in the e-mail is the invoice's page, not the portal's first screen.
      expect(mail!.text.match(/https?:\/\/\S+/g)).toEqual([link]);
    },
  );
});
