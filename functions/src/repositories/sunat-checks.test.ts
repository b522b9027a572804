import { describe, expect, it } from 'vitest';
import type { AuditStamp } from './invoice-audit.js';
import { systemStamp } from '../use-cases/audit-stamp.js';
import { keys, type Invoice } from '@portal/shared';
import { outgoingItem, outgoingMessage } from './outgoing.js';
import { withSunatCheck } from './sunat-checks.js';

const NOW = new Date('2026-11-20T15:00:00.000Z');
const invoice = {
  id: 'F001-77',
  type: 'FACTURA',
  supplierId: '20456178320',
  client: '20100070970',
  certStatus: 'PENDING',
} as Invoice;

const STAMP = systemStamp('intake', 'SUBMITTED', 'test-tx');

function recordingStore() {
  const writes: Record<string, unknown>[][] = [];
  return {
    writes,
    async create(
      _invoice: Invoice,
      _replacing: unknown,
      _audit: AuditStamp,
      alsoPut: readonly Record<string, unknown>[] = [],
    ) {
      writes.push([...alsoPut]);
    },
  };
}

describe("the intake's store with SUNAT checks", () => {
  it('writes with each new invoice its open SUNAT check, naming the SUNAT message committed beside it', async () => {
    const store = recordingStore();
    const sunat = outgoingMessage('sunatValidation', { invoiceId: invoice.id }, NOW);
    const notice = outgoingMessage('notifications', { event: 'INVOICE_RECEIVED' }, NOW);

    await withSunatCheck(store, { clock: () => NOW, staleAfterSeconds: 600 }).create(invoice, null, STAMP, [
      outgoingItem(sunat),
      outgoingItem(notice),
    ]);

    expect(store.writes).toHaveLength(1);
    expect(store.writes[0]).toContainEqual(
      expect.objectContaining({
        ...keys.sunatCheck(invoice.supplierId, 'FACTURA', invoice.id),
        state: 'OPEN',
        outgoingId: sunat.id,
        pendingSince: NOW.toISOString(),
        dueAt: '2026-11-20T15:10:00.000Z',
        gsi1pk: keys.sunatDue,
      }),
    );
  });

  it('writes nothing more for an invoice that does not wait for SUNAT', async () => {
    const store = recordingStore();
    await withSunatCheck(store, { clock: () => NOW, staleAfterSeconds: 600 }).create(
      { ...invoice, certStatus: 'VALID' },
      null,
      STAMP,
      [],
    );
    expect(store.writes).toEqual([[]]);
  });
});
