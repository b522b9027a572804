import { describe, expect, it } from 'vitest';
import { NOTIFICATION_EVENTS } from '../schemas/messages.js';
import type { NotificationMessage } from '../schemas/messages.js';
import { DIGEST_EVENTS, audiencesOf, deliveryOf, digestCountText, notificationText } from './notifications.js';

const mailedTo = (audience: 'supplier' | 'client') =>
  NOTIFICATION_EVENTS.filter((event) => deliveryOf(event, audience) === 'IMMEDIATE');

describe('the notification policy (ADR 0039)', () => {
  it('sends the staff one daily digest of the routine events, and at once only what needs a person now', () => {
    expect(DIGEST_EVENTS).toEqual([
      'INVOICE_RECEIVED',
      'SUNAT_VALID',
      'SUNAT_INVALID',
      'INVOICE_PAID',
      'ACQUIRER_CONFORMITY_PRESUMED',
    ]);
    expect(mailedTo('client').sort()).toEqual(
      [
        'MIRO_FAILED',
        'ACQUIRER_CONFORMITY_DUE_SOON',
        'ACQUIRER_CONFORMITY_DUE_TODAY',
        'INVOICE_MESSAGE_FROM_SUPPLIER',
        'CDR_CONTRADICTION',
      ].sort(),
    );
  });

  it('e-mails the supplier what it must know or act on; SUNAT’s confirmation and the scheduling stay in its feed', () => {
    expect(deliveryOf('SUNAT_VALID', 'supplier')).toBe('FEED_ONLY');
    expect(deliveryOf('PAYMENT_SCHEDULED', 'supplier')).toBe('FEED_ONLY');
    expect(mailedTo('supplier').sort()).toEqual(
      [
        'INVOICE_RECEIVED',
        'SUNAT_INVALID',
        'INVOICE_APPROVED',
        'INVOICE_REJECTED',
        'INVOICE_OBSERVED',
        'INVOICE_MESSAGE_FROM_STAFF',
        'INVOICE_PAID',
        'ACQUIRER_CONFORMITY_PRESUMED',
        'ACQUIRER_CONFORMITY_REGISTERED',
        'ACQUIRER_DISCONFORMITY_REGISTERED',
      ].sort(),
    );
    // Nobody gets a digest on the supplier's side.
    expect(NOTIFICATION_EVENTS.filter((event) => deliveryOf(event, 'supplier') === 'DIGEST')).toEqual([]);
  });

  it('keeps who reads each event in the feed as before: an audience is one the policy names', () => {
    for (const event of NOTIFICATION_EVENTS) {
      expect(audiencesOf(event)).toEqual({
        supplier: deliveryOf(event, 'supplier') !== null,
        client: deliveryOf(event, 'client') !== null,
      });
    }
    expect(audiencesOf('INVOICE_APPROVED')).toEqual({ supplier: true, client: false });
    expect(audiencesOf('MIRO_FAILED')).toEqual({ supplier: false, client: true });
  });

  it('counts in Spanish, singular and plural', () => {
    expect(digestCountText('INVOICE_RECEIVED', 12)).toBe('12 comprobantes recibidos');
    expect(digestCountText('INVOICE_RECEIVED', 1)).toBe('1 comprobante recibido');
    expect(digestCountText('SUNAT_VALID', 11)).toBe('11 válidos en SUNAT');
    expect(digestCountText('SUNAT_INVALID', 1)).toBe('1 no válido en SUNAT');
    expect(digestCountText('INVOICE_PAID', 5)).toBe('5 pagados');
    expect(digestCountText('INVOICE_RECEIVED', 1234)).toBe('1,234 comprobantes recibidos');
  });

  describe('a notification ends its sentences once', () => {
    const message = (
      event: NotificationMessage['event'],
      extra: Partial<NotificationMessage> = {},
    ): NotificationMessage => ({
      event,
      supplierId: '20123456789',
      supplierName: 'Ferretería Industrial del Sur S.A.A.',
      client: '20100000001',
      clientName: 'Cementos Andinos S.A.C.',
      invoiceType: 'FACTURA',
      invoiceId: 'F001-123',
      detail: null,
      occurredAt: '2026-03-02T15:00:00.000Z',
      ...extra,
    });

    it('gives no second period to a business name that ends a sentence, at the end or inside the text', () => {
      const texts = [
        notificationText(message('SUNAT_VALID')),
        notificationText(message('SUNAT_INVALID')),
        notificationText(message('MIRO_FAILED')),
        notificationText(message('INVOICE_RECEIVED', { expectedPaymentDate: '2026-03-20' })),
        notificationText(message('ACQUIRER_CONFORMITY_DUE_TODAY', { detail: '2026-03-10' })),
      ];
      for (const text of texts) expect(text).not.toContain('..');
      expect(texts[0]).toBe('SUNAT confirmó la validez de la factura F001-123 de Ferretería Industrial del Sur S.A.A.');
      expect(texts[3]).toBe(
        'Se recibió la factura F001-123 de Ferretería Industrial del Sur S.A.A. para Cementos Andinos S.A.C. ' +
          'Fecha de pago estimada: 20/03/26.',
      );
    });

    it('still ends a sentence whose name brings no period', () => {
      expect(notificationText(message('SUNAT_VALID', { supplierName: 'Ferretería Lima' }))).toBe(
        'SUNAT confirmó la validez de la factura F001-123 de Ferretería Lima.',
      );
      expect(notificationText(message('SUNAT_INVALID', { detail: 'El comprobante no existe' }))).toBe(
        'SUNAT no validó la factura F001-123 de Ferretería Industrial del Sur S.A.A.: El comprobante no existe.',
      );
    });
  });
});
