import { BatchGetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { RetentionExemption, SupplierProfile, keys } from '@portal/shared';

/** A directory profile with what the payment rules read: why the supplier is not retained the IGV, if it is not. */
export interface KnownSupplier extends SupplierProfile {
  readonly igvRetentionExemption?: RetentionExemption | null;
}

/** The supplier directory by RUC: the business names of accounts, and the profile of a new supplier. */
export interface SupplierProfileRepository {
  /** The profiles of the RUCs that have one. */
  getMany(rucs: readonly string[]): Promise<Map<string, KnownSupplier>>;
  /** Adds the supplier to the directory unless it is there; answers the profile as stored (the first name wins). */
  createIfAbsent(profile: SupplierProfile): Promise<SupplierProfile>;
}

const BATCH_GET_LIMIT = 100;
const MAX_ATTEMPTS = 6;

export function makeSupplierProfileRepository(db: DynamoDBDocumentClient, table: string): SupplierProfileRepository {
  return {
    async getMany(rucs) {
      const found = new Map<string, KnownSupplier>();
      const unique = [...new Set(rucs)];
      for (let i = 0; i < unique.length; i += BATCH_GET_LIMIT) {
        let pending: Record<string, unknown>[] = unique.slice(i, i + BATCH_GET_LIMIT).map((ruc) => keys.supplier(ruc));
        for (let attempt = 1; pending.length > 0; attempt++) {
          if (attempt > MAX_ATTEMPTS) throw new Error('DynamoDB left supplier profiles unprocessed');
          const result = await db.send(
            new BatchGetCommand({
              RequestItems: {
                [table]: {
                  Keys: pending,
                  ProjectionExpression: 'taxId, #name, igvRetentionExemption',
                  ExpressionAttributeNames: { '#name': 'name' },
                },
              },
            }),
          );
          for (const item of result.Responses?.[table] ?? []) {
            const profile = SupplierProfile.parse(item);
            const exemption = RetentionExemption.safeParse(item.igvRetentionExemption);
            found.set(profile.taxId, { ...profile, igvRetentionExemption: exemption.success ? exemption.data : null });
          }
          pending = (result.UnprocessedKeys?.[table]?.Keys ?? []) as Record<string, unknown>[];
          if (pending.length > 0) await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** attempt));
        }
      }
      return found;
    },

    async createIfAbsent(profile) {
      // As intake does: every attribute is written only where missing, so an existing profile keeps its name.
      const attributes = { ...keys.supplierIndexes(profile), taxId: profile.taxId, name: profile.name };
      const names = Object.keys(attributes);
      const result = await db.send(
        new UpdateCommand({
          TableName: table,
          Key: keys.supplier(profile.taxId),
          UpdateExpression: `SET ${names.map((_, i) => `#a${i} = if_not_exists(#a${i}, :a${i})`).join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#a${i}`, name])),
          ExpressionAttributeValues: Object.fromEntries(Object.values(attributes).map((value, i) => [`:a${i}`, value])),
          ReturnValues: 'ALL_NEW',
        }),
      );
      return SupplierProfile.parse(result.Attributes);
    },
  };
}
