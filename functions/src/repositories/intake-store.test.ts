import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { keys, type Invoice } from '@portal/shared';
import { invoiceFixture } from '../use-cases/invoice.fake.js';
import { IntakeRaceError, makeIntakeStore, type ExistingInvoice } from './intake-store.js';

const INVOICE: Invoice = invoiceFixture({
  id: 'F001-77',
  numericId: '77',
  supplierId: '20456178325',
  supplierName: 'Ferretería Industrial S.A.C.',
  amount: 1180,
  taxAmount: 180,
  issuedAt: '2026-11-20',
  receivedAt: '2026-11-20T10:00:00.000Z',
});

const actor = { id: 'u', name: 'U', email: null, role: 'SUPPLIER' as const, signIn: 'PASSWORD' as const };

/** The keys the intake's transaction writes for a new invoice, with the options given. */
async function writtenKeys(options?: { supplierInDirectory?: boolean }): Promise<string[]> {
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
  const mock = mockClient(db);
  mock.on(TransactWriteCommand).resolves({});
  await makeIntakeStore(db, 'table').create(INVOICE, null, { actor, action: 'SUBMITTED', txId: 't' }, [], [], options);
  const items = mock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems ?? [];
  return items.map((item) => {
    const key = (item.Put?.Item ?? item.Update?.Key ?? item.Delete?.Key) as { pk: string; sk: string };
    return `${key.pk}|${key.sk}`;
  });
}

describe("the intake's transaction", () => {
  const supplier = keys.supplier(INVOICE.supplierId);
  const supplierKey = `${supplier.pk}|${supplier.sk}`;

  it("writes the supplier's directory profile where missing when the intake did not find it", async () => {
    expect(await writtenKeys()).toContain(supplierKey);
    expect(await writtenKeys({ supplierInDirectory: false })).toContain(supplierKey);
  });

  it('leaves the profile alone when the intake read it (its first name stays: the write would change nothing)', async () => {
    const keysWritten = await writtenKeys({ supplierInDirectory: true });
    expect(keysWritten).not.toContain(supplierKey);
    // Everything else is written as before: one item fewer.
    expect(keysWritten).toHaveLength((await writtenKeys()).length - 1);
  });

  /** What create throws when DynamoDB cancels its transaction with these reasons (the invoice's first). */
  async function refusal(codes: readonly string[], replacing: ExistingInvoice | null): Promise<unknown> {
    const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
    const mock = mockClient(db);
    mock.on(TransactWriteCommand).callsFake(async (input: { TransactItems: unknown[] }) => {
      const reasons = input.TransactItems.map((_, i) => ({ Code: codes[i] ?? 'None' }));
      throw new TransactionCanceledException({ message: 'cancelled', $metadata: {}, CancellationReasons: reasons });
    });
    const audit = { actor, action: replacing ? 'RESUBMITTED' : 'SUBMITTED', txId: 't' } as const;
    return makeIntakeStore(db, 'table')
      .create(INVOICE, replacing, audit)
      .then(
        () => 'stored',
        (error: unknown) => error,
      );
  }
  const rejection = {
    ...INVOICE,
    status: 'REJECTED',
    disapprovedWithoutRejection: true,
    version: 3,
  } as ExistingInvoice;

  it('answers a duplicate when the invoice is already there, and asks to read again when the rejection it replaces moved', async () => {
    expect(await refusal(['ConditionalCheckFailed'], null)).toMatchObject({ code: 'ERROR_INVOICE_ALREADY_EXISTS' });
    // The rejection changed since it was read (SUNAT's answer landed on it): the intake reads it again.
    const moved = await refusal(['ConditionalCheckFailed'], rejection);
    expect(moved).toBeInstanceOf(IntakeRaceError);
    expect((moved as IntakeRaceError).invoiceMoved).toBe(true);
    // Another write held the invoice at that moment: read again, new or replacing.
    for (const replacing of [null, rejection]) {
      expect(await refusal(['TransactionConflict'], replacing)).toMatchObject({ invoiceMoved: true });
    }
  });
});
