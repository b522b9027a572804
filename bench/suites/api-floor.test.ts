import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { keys } from '@portal/shared';
import { newMiroOutboxRecord, sapPostingCounts } from '../../functions/src/repositories/miro-outbox.js';
import { outgoingItem, outgoingMessage } from '../../functions/src/repositories/outgoing.js';
import { makeInvoiceStore } from '../../functions/src/repositories/invoice-store.js';
import { EMPLOYEES, OFFICE_LOCATIONS } from '../../local/seed/seed-data.js';
import { BENCH_CLIENT, poolInvoices } from '../lib/api-seed.js';
import { floorChange, floorWrites, settled, type DocWrite, type FloorChange } from './api.js';

const TABLE = 'bench-table';
const completion = { employee: EMPLOYEES[BENCH_CLIENT.taxId]![0]!, office: OFFICE_LOCATIONS[BENCH_CLIENT.taxId]![0]! };
const seeded = poolInvoices(0, 1)[0]!.invoice;
const now = new Date('2026-11-27T12:00:00Z');

/** The writes of the endpoint's own commit (invoice-store.ts) for the same change, as the use case asks it. */
async function endpointWrites(change: FloorChange): Promise<DocWrite[]> {
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
  const mock = mockClient(db);
  mock.on(TransactWriteCommand).resolves({});
  const [before, after] = floorChange(seeded, change, completion);
  const actor = { id: 'u', name: 'U', email: null, role: 'MANAGER' as const, signIn: 'PASSWORD' as const };
  await makeInvoiceStore(db, TABLE, () => now).commit({
    before: { ...before, version: 1 },
    after,
    whileStatusIn: [before.status],
    ...(change === 'approve'
      ? {
          create: newMiroOutboxRecord(after, 'u', now, 0),
          alsoPut: [outgoingItem(outgoingMessage('miroRequests', { invoiceId: after.id }, now))],
          alsoCount: [sapPostingCounts(after.client, { open: 1 })],
        }
      : {}),
    audit: { actor, action: change === 'approve' ? 'APPROVED' : 'COMPLETED', txId: 't' },
  });
  const input = mock.commandCalls(TransactWriteCommand)[0]!.args[0].input;
  return input.TransactItems as unknown as DocWrite[];
}

const kinds = (writes: readonly DocWrite[]) =>
  writes.map((write) => Object.keys(write)[0]).sort((a, b) => a!.localeCompare(b!));

describe("the approval's and the completion's transaction floor", () => {
  it.each<FloorChange>(['complete', 'completeAgain', 'approve'])(
    'writes as many items of each kind as the endpoint commits for the change (%s)',
    async (change) => {
      const floor = floorWrites(TABLE, seeded, change, completion, 'BENCHFLOOR#1', now);
      const endpoint = await endpointWrites(change);
      // The endpoint Puts the invoice where the floor Updates it: one write each.
      expect(floor).toHaveLength(endpoint.length);
      expect(kinds(floor).filter((kind) => kind !== 'Update')).toEqual(
        kinds(endpoint.slice(1)).filter((kind) => kind !== 'Update'),
      );
    },
  );

  it('changes nothing the portal reads: the invoice gets a marker, counters a benchmark attribute, the rest its own items', () => {
    const floor = floorWrites(TABLE, seeded, 'approve', completion, 'BENCHFLOOR#1', now);
    const marked = [
      keys.invoice(seeded.supplierId, seeded.type, seeded.id).pk,
      keys.dashboard(seeded.client, 'ALL').pk,
    ];
    for (const write of floor) {
      const [kind, action] = Object.entries(write)[0]!;
      const key = (action.Key ?? action.Item) as { pk: string };
      if (kind === 'Update') {
        expect(String(action.UpdateExpression)).toMatch(/^(SET benchFloorAt|ADD benchFloorWrites) /);
      } else {
        expect(key.pk).toBe('BENCHFLOOR#1');
      }
      if (kind === 'Update' && !key.pk.startsWith('COUNTS#')) expect(marked).toContain(key.pk);
    }
    // The approval moves the invoice between lists: the floor writes that many entries of its own.
    expect(floor.filter((write) => write.Delete).length).toBeGreaterThan(0);
  });
});

describe("a read's warm-up", () => {
  it('goes on while one window answers three times slower than the next, and stops once two agree within 20 %', () => {
    expect(settled(1_077, 320)).toBe(false);
    expect(settled(320, 1_077)).toBe(false);
    expect(settled(30, 35)).toBe(true);
    expect(settled(35, 30)).toBe(true);
    expect(settled(30, 37)).toBe(false);
  });
});
