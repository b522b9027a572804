/**
 * The single DynamoDB table: key attributes, indexes and key builders, defined once.
 * The CDK table, the local stage's CreateTable, the seed and the repositories all read this module.
 * The access-pattern table lives in docs/data-design.md.
 *
 * Indexes are generic (gsi1…gsi11, four of them retired) and overloaded by entity: the key builders (invoice-keys.ts, record-keys.ts) are the only
 * place that says what an index holds for which entity. Every index projects all attributes, so a
 * list page is one Query per partition and never a second read per item.
 */
import { invoiceKeys } from './invoice-keys.js';
import { recordKeys } from './record-keys.js';

export * from './table-schema.js';

/** Every key builder of the table: an invoice's (invoice-keys.ts) and the rest's (record-keys.ts). */
export const keys = { ...invoiceKeys, ...recordKeys } as const;
