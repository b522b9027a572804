import { QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { Employee, OfficeLocation, TABLE, keys, normalizeForSearch } from '@portal/shared';

export interface ReferenceDataRepository {
  /** Active employees of a company, in id order. */
  listActiveEmployees(acquirer: string): Promise<Employee[]>;
  /** Active employees of a company whose name starts with `namePrefix` (accents and case ignored), by name. */
  listActiveEmployeesByNamePrefix(acquirer: string, namePrefix: string): Promise<Employee[]>;
  listOfficeLocations(taxId: string): Promise<OfficeLocation[]>;
}

/** Only employees still active answer: a former employee cannot be chosen as responsible. */
const ACTIVE_ONLY = {
  FilterExpression: '#active = :active',
  names: { '#active': 'active' },
  values: { ':active': true },
} as const;

export function makeReferenceDataRepository(db: DynamoDBDocumentClient, table: string): ReferenceDataRepository {
  /** A company's employees and offices are a few dozen items; every page is read all the same. */
  async function queryAll<T>(input: Omit<QueryCommandInput, 'TableName'>, parse: (item: unknown) => T): Promise<T[]> {
    const items: T[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await db.send(new QueryCommand({ ...input, TableName: table, ExclusiveStartKey: startKey }));
      items.push(...(page.Items ?? []).map(parse));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return items;
  }

  return {
    listActiveEmployees(acquirer) {
      return queryAll(
        {
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          FilterExpression: ACTIVE_ONLY.FilterExpression,
          ExpressionAttributeNames: ACTIVE_ONLY.names,
          ExpressionAttributeValues: {
            ':pk': keys.employees(acquirer),
            // The sort key of an employee without its id: the prefix every employee of the partition shares.
            ':prefix': keys.employee(acquirer, '').sk,
            ...ACTIVE_ONLY.values,
          },
        },
        (item) => Employee.parse(item),
      );
    },
    listActiveEmployeesByNamePrefix(acquirer, namePrefix) {
      const index = TABLE.indexes.byClientName;
      return queryAll(
        {
          IndexName: index.name,
          KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
          FilterExpression: ACTIVE_ONLY.FilterExpression,
          ExpressionAttributeNames: { '#pk': index.partitionKey, '#sk': index.sortKey, ...ACTIVE_ONLY.names },
          ExpressionAttributeValues: {
            ':pk': keys.employees(acquirer),
            ':prefix': normalizeForSearch(namePrefix),
            ...ACTIVE_ONLY.values,
          },
        },
        (item) => Employee.parse(item),
      );
    },
    listOfficeLocations(taxId) {
      return queryAll(
        {
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: {
            ':pk': keys.officeLocations(taxId),
            ':prefix': keys.officeLocation(taxId, '').sk,
          },
        },
        (item) => OfficeLocation.parse(item),
      );
    },
  };
}
