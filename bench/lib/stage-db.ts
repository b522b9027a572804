import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '@portal/shared';
import type { LocalOutputs } from '../../local/runtime/outputs.js';
import { LOCAL_CREDENTIALS } from '../../local/stand-ins/types.js';

/**
 * A document client of the local stage's DynamoDB that drops undefined attributes, as the functions' own does.
 * `wrap` sees the low-level client first (the floors meter its consumed capacity as the functions' client does).
 */
export function stageDb(
  outputs: LocalOutputs,
  wrap: (client: DynamoDBClient) => DynamoDBClient = (client) => client,
): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(
    wrap(
      new DynamoDBClient({
        region: outputs.region,
        endpoint: outputs.endpoints.dynamodb,
        credentials: LOCAL_CREDENTIALS,
      }),
    ),
    { marshallOptions: { removeUndefinedValues: true } },
  );
}

/**
 * The invoices on the list `list` (keys.supplierInvoices or keys.clientInvoices of a RUC), counted on its entries in
 * the invoice order (its due-date entries share the partition).
 */
export async function countListInvoices(db: DynamoDBDocumentClient, table: string, list: string): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :order)',
        ExpressionAttributeValues: { ':pk': keys.invoiceListPartition(list), ':order': keys.invoiceOrderPrefix },
        Select: 'COUNT',
        ExclusiveStartKey: start,
      }),
    );
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return count;
}
