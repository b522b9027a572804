import { expect, it } from 'vitest';
import { keys, withCheckDigit, type NotificationMessage } from '@portal/shared';
import { CLIENTS } from '../../infra/local/seed-data.js';
import { table } from '../support/fixtures.js';
import { stage } from '../support/stage.js';

/**
 * A change whose queue message could not be sent leaves it in the table (committed with the change);
 * the OutboxSweeper schedule sends it. Here the "failed send" is an OUTGOING item written directly,
 * committed two minutes ago, about a supplier that exists only in this test.
 */
it('sends a message left behind by a failed send, and forgets it', async () => {
  const supplierId = withCheckDigit('2070000019');
  const message: NotificationMessage = {
    event: 'INVOICE_RECEIVED',
    supplierId,
    supplierName: 'Proveedor del Relevo S.A.C.',
    client: CLIENTS[0]!.taxId,
    clientName: CLIENTS[0]!.name,
    invoiceType: 'FACTURA',
    invoiceId: 'F001-5',
    detail: null,
    occurredAt: new Date().toISOString(),
  };
  const createdAt = new Date(Date.now() - 120_000).toISOString();
  const key = keys.outgoing('notifications', `relay-test-${Date.now()}`);
  await table().put({
    ...key,
    ...keys.outgoingIndexes('notifications', createdAt, key.pk),
    queue: 'notifications',
    body: JSON.stringify(message),
    createdAt,
  });

  const sap = stage().endpoints.sap;
  const { run } = (await (await fetch(`${sap}/__control/schedules/OutboxSweeper`, { method: 'POST' })).json()) as {
    run: number;
  };
  const deadline = Date.now() + 20_000;
  let feed: Record<string, unknown>[] = [];
  while (Date.now() < deadline) {
    const state = (await (await fetch(`${sap}/__control/schedules/OutboxSweeper`)).json()) as {
      completed: number;
      lastError: string | null;
    };
    feed = await table().partition(keys.feed('SUPPLIER', supplierId));
    if (state.completed >= run && feed.length > 0) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect(feed.map((item) => item.message)).toEqual([
    `Se recibió la factura F001-5 de Proveedor del Relevo S.A.C. para ${CLIENTS[0]!.name}`,
  ]);
  expect(await table().get(key)).toBeUndefined();
});
