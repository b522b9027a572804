import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { migrateInvoiceLists, migrateSearchItems } from '../../functions/src/jobs/invoice-list-migration.js';
import { foldSapPostingCounts } from '../../functions/src/jobs/sap-posting-counts-fold.js';

/**
 * `npm run migrate:lists -- --table <name> [--region <region>]`: the data migrations of a deployed stage, run once its
 * deploy is over (docs/deploying.md, "Data migrations after a deploy"): gives the invoices stored before ADR 0042 their
 * list entries, folds the companies' SAP posting counts onto their dashboard counters (ADR 0043), and gives every
 * invoice its search items of one item per token (ADR 0045). Uses the caller's AWS credentials (the default
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
const search = await migrateSearchItems(
  db,
  table,
  () => new Date(),
  (line) => console.log(line),
);
console.log(`Búsqueda de comprobantes al día (${search.migrated} comprobantes migrados en esta ejecución).`);
const folded = await foldSapPostingCounts(db, table);
console.log(
  `Conteos de contabilizaciones SAP al día (${folded.FOLDED} empresas trasladadas, ${folded.DROPPED} sin conteo exacto).`,
);
