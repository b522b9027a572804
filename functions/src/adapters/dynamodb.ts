import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { RUNTIME_ENV } from '@portal/shared';
import { telemetry } from '../observability/telemetry.js';
import { meterConsumedCapacity } from './dynamodb-capacity.js';

/**
 * Built once per cold start. The endpoint comes from the SDK's own AWS_ENDPOINT_URL_DYNAMODB on the
 * local stage; in AWS it is the regional default. The code does not know which stage it runs in.
 * Each call is a span of the function's trace (telemetry.ts) and asks for the capacity it consumed, counted per
 * operation and put on its span (dynamodb-capacity.ts).
 */
export const documentClient = DynamoDBDocumentClient.from(
  meterConsumedCapacity(telemetry.instrumentClient(new DynamoDBClient({}))),
  { marshallOptions: { removeUndefinedValues: true } },
);

export function tableName(): string {
  const name = process.env[RUNTIME_ENV.tableName];
  if (!name) throw new Error(`${RUNTIME_ENV.tableName} is not set`);
  return name;
}
