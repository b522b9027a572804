import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { buildPath, keys, routes } from '@portal/shared';
import type { LaunchedStage } from '../../local/runtime/launch.js';
import type { LocalOutputs } from '../../local/runtime/outputs.js';
import { CLIENTS } from '../../local/seed/seed-data.js';
import { acquireSlot, releaseSlot } from '../setup/local-stage.js';
import { demoToken, launchOwnStage, stageTable } from './helpers.js';

/** The seed holds fifteen COMPLETED invoices across the three companies. */
const APPROVALS = 15;
const KILL_AFTER_ANSWERS = 5;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The seed's COMPLETED invoices (SAP knows their orders and documents): ready to approve. */
async function completedInvoices(outputs: LocalOutputs): Promise<{ supplierId: string; type: string; id: string }[]> {
  const db = stageTable(outputs);
  const found: { supplierId: string; type: string; id: string }[] = [];
  for (const client of CLIENTS) {
    // The company's list of COMPLETED invoices (its list entries, ADR 0042).
    const page = await db.send(
      new QueryCommand({
        TableName: outputs.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: {
          ':pk': keys.invoiceListPartition(keys.clientStatusInvoices(client.taxId, 'COMPLETED')),
        },
      }),
    );
    for (const item of page.Items ?? [])
      found.push({ supplierId: String(item.supplierId), type: String(item.type), id: String(item.id) });
  }
  return found;
}

/** Invoice and MIRO record of each of these invoices, as stored now. */
async function stored(outputs: LocalOutputs, invoices: readonly { supplierId: string; type: string; id: string }[]) {
  const db = stageTable(outputs);
  const items: Record<string, any>[] = [];
  for (let i = 0; i < invoices.length; i += 40) {
    const chunk = invoices.slice(i, i + 40);
    const result = await db.send(
      new BatchGetCommand({
        RequestItems: {
          [outputs.tableName]: {
            Keys: chunk.flatMap((invoice) => [
              keys.invoice(invoice.supplierId, invoice.type, invoice.id),
              keys.miroOutbox(invoice.supplierId, invoice.type, invoice.id),
            ]),
            ConsistentRead: true,
          },
        },
      }),
    );
    expect(Object.keys(result.UnprocessedKeys ?? {})).toHaveLength(0);
    items.push(...(result.Responses?.[outputs.tableName] ?? []));
  }
  return invoices.map((invoice) => ({
    invoice: items.find((item) => item.pk === keys.invoice(invoice.supplierId, invoice.type, invoice.id).pk)!,
    outbox: items.find((item) => item.pk === keys.miroOutbox(invoice.supplierId, invoice.type, invoice.id).pk),
  }));
}

async function postingsAtSap(outputs: LocalOutputs): Promise<Record<string, number>> {
  const response = await fetch(`${outputs.endpoints.sap}/__control/postings`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { byInvoice: Record<string, number> }).byInvoice;
}

describe('the local stage killed during a burst of approvals', () => {
  it(
    `posts every approved invoice exactly once at SAP after a restart on the same data (${APPROVALS} approvals, killed after ${KILL_AFTER_ANSWERS} answers)`,
    { timeout: 600_000 },
    async () => {
      // A stage of its own (its own ports and data directory), its process group killed at once, as a crash would.
      const slot = await acquireSlot({ extraStage: true });
      // Retries after 1 s, 2 s, 4 s … and the sweeper every 3 s: the test does not wait minutes.
      const launch = (keepData: boolean) => launchOwnStage(slot, { keepData, env: { MIRO_RETRY_BASE_SECONDS: '1' } });
      let stage: LaunchedStage | null = null;
      try {
        stage = await launch(false);
        const outputs = stage.outputs;
        const invoices = (await completedInvoices(outputs)).slice(0, APPROVALS);
        expect(invoices.length).toBe(APPROVALS);
        const token = await demoToken(outputs, 'ADMIN');

        // The burst: every approval at once; the group is killed once a third of them have answered.
        let answered = 0;
        let killed: Promise<void> | null = null;
        const approvals = invoices.map(async (invoice) => {
          const path = { supplierId: invoice.supplierId, invoiceType: invoice.type, invoiceId: invoice.id };
          try {
            const response = await fetch(`${outputs.apiUrl}${buildPath(routes.approveInvoice, path)}`, {
              method: 'POST',
              headers: { authorization: `Bearer ${token}` },
            });
            await response.body?.cancel();
            if (response.status === 200) answered += 1;
            if (answered >= KILL_AFTER_ANSWERS) killed ??= stage!.kill('SIGKILL');
            return response.status;
          } catch {
            return 0; // the stage died under it
          }
        });
        const statuses = await Promise.all(approvals);
        await killed;
        const approvedBeforeKill = invoices.filter((_, i) => statuses[i] === 200);
        expect(approvedBeforeKill.length).toBeGreaterThanOrEqual(KILL_AFTER_ANSWERS);
        expect(
          statuses.some((status) => status !== 200),
          'some approvals were in flight when the stage died',
        ).toBe(true);

        // The same data directory: DynamoDB Local's file and the SAP simulator's state survive.
        stage = await launch(true);
        const afterRestart = stage.outputs;
        const before = await stored(afterRestart, invoices);
        const accepted = invoices.filter((_, i) => before[i]!.invoice.status === 'ACCEPTED');
        // Every approval that answered 200 was committed; some that did not answer may have been too.
        for (const invoice of approvedBeforeKill) expect(accepted).toContainEqual(invoice);
        console.info(
          `kill-and-restart: ${approvedBeforeKill.length} approvals answered, ${accepted.length} committed; ` +
            `outbox states after restart: ${JSON.stringify(before.map((entry) => entry.outbox?.state ?? null))}`,
        );

        const deadline = Date.now() + 180_000;
        let last: Awaited<ReturnType<typeof stored>> = [];
        while (Date.now() < deadline) {
          last = await stored(afterRestart, accepted);
          if (last.every((entry) => entry.outbox?.state === 'POSTED' && entry.invoice.sapDocument)) break;
          await sleep(1000);
        }
        const postings = await postingsAtSap(afterRestart);
        for (const [i, invoice] of accepted.entries()) {
          const entry = last[i]!;
          expect(entry.outbox, invoice.id).toMatchObject({ state: 'POSTED' });
          expect(entry.invoice.sapDocument, invoice.id).toEqual(entry.outbox!.sapDocument);
          expect(entry.invoice.sapDocument.number, invoice.id).toMatch(/^\d{10}$/);
          expect(postings[`${invoice.supplierId}/${invoice.id}`], `postings of ${invoice.id} at SAP`).toBe(1);
        }
        // The approvals that never committed were not posted either.
        for (const invoice of invoices.filter((candidate) => !accepted.includes(candidate)))
          expect(postings[`${invoice.supplierId}/${invoice.id}`]).toBeUndefined();
      } finally {
        await stage?.stop();
        await releaseSlot(slot);
      }
    },
  );
});
