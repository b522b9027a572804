/**
 * The cold-import reference (bench/suites/functions.ts): the DynamoDB client alone, which every function carries.
 * Its import, bundled as the functions are and in the same environment, measures the machine of the day; each
 * function's import is scaled by it to the reference machine on which the budgets were met.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

export const client = new DynamoDBClient({});
