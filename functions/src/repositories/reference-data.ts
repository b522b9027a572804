import { QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { Employee, OfficeLocation, drivingTerm, keys } from '@portal/shared';

export interface ReferenceDataRepository {
  /** Active employees of a company, in id order. */
  listActiveEmployees(acquirer: string): Promise<Employee[]>;
  /**
   * Active employees of a company with, for each term (folded as search.ts does), a word of the name that
   * starts with it; in the order of the matching word, each employee once.
   */
  listActiveEmployeesMatching(acquirer: string, terms: readonly string[]): Promise<Employee[]>;
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
    async listActiveEmployeesMatching(acquirer, terms) {
      const driving = drivingTerm(terms);
      if (driving === null) return [];
      // The word items of the longest term; the other terms are checked on each item's words.
      const matches = await queryAll(
        {
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          FilterExpression: ACTIVE_ONLY.FilterExpression,
          ExpressionAttributeNames: ACTIVE_ONLY.names,
          ExpressionAttributeValues: { ':pk': keys.employeeWords(acquirer), ':prefix': driving, ...ACTIVE_ONLY.values },
        },
        (item) => item as { words?: unknown } & Record<string, unknown>,
      );
      const found = new Map<string, Employee>();
      for (const item of matches) {
        const words = Array.isArray(item.words) ? (item.words as string[]) : [];
        if (!terms.every((term) => words.some((word) => word.startsWith(term)))) continue;
        const employee = Employee.parse(item);
        if (!found.has(employee.id)) found.set(employee.id, employee);
      }
      return [...found.values()];
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
