import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { migrateInvoiceLists } from '../../functions/src/jobs/invoice-list-migration.js';

/**
 * `npm run migrate:lists -- --table <name> [--region <region>]`: gives the invoices of a deployed stage stored before
 * ADR 0042 their list entries (docs/deploying.md, "After a deploy"). Uses the caller's AWS credentials (the default
 * chain: AWS_PROFILE, SSO…); the table is the `TableName` output of the stage's Stateful stack. Safe to run again, and
 * to interrupt: it resumes where it stopped, and on a table already migrated it only reads its state.
 */
function argument(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const table = argument('table');
const region = argument('region') ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;
if (!table || !region) {
  console.error('Uso: npm run migrate:lists -- --table <TableName del stack Stateful> --region <región>');
  process.exit(2);
}
const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region }));
const result = await migrateInvoiceLists(
  db,
  table,
  () => new Date(),
  (line) => console.log(line),
);
console.log(`Listas de comprobantes al día (${result.migrated} comprobantes migrados en esta ejecución).`);
