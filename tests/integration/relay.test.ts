import { expect, it } from 'vitest';
import { keys, withCheckDigit, type NotificationMessage } from '@portal/shared';
import { makeOutgoing, outgoingItem, outgoingMessage } from '../../functions/src/repositories/outgoing.js';
import { CLIENTS } from '../support/tenant.js';
import { table, stageDocumentClient } from '../support/fixtures.js';
import { stage } from '../support/stage.js';
import { driveUntil } from '../support/schedules.js';

/**
 * A change commits its queue messages with itself (an OUTGOING item); the item stays until the consumer
 * has handled the message. The OutboxSweeper schedule sends again what was never sent (a failed send)
 * and what was sent but never handled (the SQS stand-in lost it in a restart, say). Here those are
 * OUTGOING items written directly, about suppliers that exist only in this test.
 */
/** The notice that the tenant's first company received `invoiceId` from the supplier `supplierId`, at `occurredAt`. */
function receivedNotice(supplierId: string, name: string, invoiceId: string, occurredAt: Date): NotificationMessage {
  return {
    event: 'INVOICE_RECEIVED',
    supplierId,
    supplierName: name,
    client: CLIENTS[0]!.taxId,
    clientName: CLIENTS[0]!.name,
    invoiceType: 'FACTURA',
    invoiceId,
    detail: null,
    occurredAt: occurredAt.toISOString(),
  };
}

async function leftBehind(supplierId: string, name: string, sent: boolean) {
  const message = receivedNotice(supplierId, name, 'F001-5', new Date());
  const createdAt = new Date(Date.now() - 20 * 60_000).toISOString();
  const key = keys.outgoing('notifications', `relay-test-${supplierId}-${Date.now()}`);
  // A sent one was due for its acknowledgement ten minutes ago.
  const due = sent ? new Date(Date.now() - 10 * 60_000).toISOString() : createdAt;
  await table().put({
    ...key,
    ...keys.outgoingIndexes('notifications', due, key.pk),
    queue: 'notifications',
    body: JSON.stringify(message),
    createdAt,
    ...(sent ? { sentAt: createdAt, relays: 0 } : {}),
  });
  return key;
}

const sweepUntil = (what: string, done: () => Promise<boolean>) =>
  driveUntil(what, ['OutboxSweeper'], done, { timeout: 20_000 });

/**
 * Sweeps until the relayed notice of `invoiceId` is in the supplier's feed and its outgoing item is gone, then checks
 * that the feed holds that one notice and that the notifications worker acknowledged it: nothing left to send.
 */
async function relayedOnce(supplierId: string, name: string, invoiceId: string, key: { pk: string; sk: string }) {
  const feed = async () => table().partition(keys.feed('SUPPLIER', supplierId));
  await sweepUntil(
    'the relayed message handled and forgotten',
    async () => (await feed()).length > 0 && (await table().get(key)) === undefined,
  );
  expect((await feed()).map((item) => item.message)).toEqual([
    `Se recibió la factura ${invoiceId} de ${name} para ${CLIENTS[0]!.name}`,
  ]);
  expect(await table().get(key)).toBeUndefined();
}

it.each([
  ['a failed send', false, '2070000019', 'Proveedor del Relevo S.A.C.'],
  ['a message sent and never handled, relayed once already', true, '2070000027', 'Proveedor del Reenvío S.A.C.'],
])('sends a message left behind by %s, and forgets it once handled', async (_, sent, ruc, name) => {
  const supplierId = withCheckDigit(ruc);
  const key = await leftBehind(supplierId, name, sent);
  await relayedOnce(supplierId, name, 'F001-5', key);
});

it('sends again a message its queue lost after the send, and forgets it once handled', async () => {
  const supplierId = withCheckDigit('2070000035');
  const name = 'Proveedor del Mensaje Perdido S.A.C.';
  const { tableName } = stage();
  const db = stageDocumentClient();
  // The intake's outbox in this process, ten minutes ago, with queues that accept a message and lose it
  // (as the SQS stand-in does in a restart): the send succeeds, nobody ever handles the message.
  const lost = { send: async () => undefined };
  const tenMinutesAgo = () => new Date(Date.now() - 10 * 60_000);
  const outgoing = makeOutgoing(
    db,
    tableName,
    {
      notifications: lost,
      sunatValidation: lost,
      miroRequests: lost,
      exports: lost,
      inboundMail: lost,
      intakeBatches: lost,
    },
    { error: () => undefined },
    tenMinutesAgo,
  );
  const notice = receivedNotice(supplierId, name, 'F001-6', tenMinutesAgo());
  const message = outgoingMessage('notifications', notice, tenMinutesAgo());
  await table().put(outgoingItem(message)); // committed with its change
  await outgoing.deliver([message]);
  const key = keys.outgoing('notifications', message.id);
  expect(await table().get(key)).toMatchObject({ sentAt: expect.any(String) });

  await relayedOnce(supplierId, name, 'F001-6', key);
});
