import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { keys } from '@portal/shared';

/**
 * The one item listing the accounts an administrator disabled (keys.disabledUsers): the Cognito Usernames in
 * a string set. A Username is at most 128 characters (a password user's is its 36-character sub), so the
 * 400 KB item holds about ten thousand disabled accounts; docs/adr/0014-access-ends-when-it-should.md says what to do before that.
 */
export const DISABLED_USERS_ATTRIBUTE = 'userIds';

/** Reads the set; an absent item or attribute is an empty set. One GetItem, strongly consistent when asked. */
export function makeDisabledUsersReader(db: Pick<DynamoDBDocumentClient, 'send'>, table: string) {
  return async (options: { readonly consistent: boolean } = { consistent: true }): Promise<ReadonlySet<string>> => {
    const { Item } = await db.send(
      new GetCommand({
        TableName: table,
        Key: keys.disabledUsers,
        ConsistentRead: options.consistent,
        ProjectionExpression: '#ids',
        ExpressionAttributeNames: { '#ids': DISABLED_USERS_ATTRIBUTE },
      }),
    );
    const ids: unknown = Item?.[DISABLED_USERS_ATTRIBUTE];
    return ids instanceof Set ? (ids as Set<string>) : new Set();
  };
}

/**
 * The transaction item adding an account to the set (disable) or taking it out (enable). ADD and DELETE of a
 * set are idempotent, so a retried disable or enable writes the same state again.
 */
export function disabledUsersUpdate(table: string, userId: string, disabled: boolean) {
  return {
    Update: {
      TableName: table,
      Key: keys.disabledUsers,
      UpdateExpression: `${disabled ? 'ADD' : 'DELETE'} #ids :ids`,
      ExpressionAttributeNames: { '#ids': DISABLED_USERS_ATTRIBUTE },
      ExpressionAttributeValues: { ':ids': new Set([userId]) },
    },
  };
}
