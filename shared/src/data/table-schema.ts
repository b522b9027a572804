/* The table's attributes and indexes, and the types its key builders share (table.ts puts them together). */
export const TABLE = {
  logicalName: 'PortalTable',
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'expiresAt',
  indexes: {
    /** Invoices of a company, newest first · conformity documents of an acquirer · audit events of one account. */
    byClient: { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    /** A supplier's invoice search (its search items, ADR 0045) · the whole audit log, newest first. */
    bySupplier: { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    /** Invoices of one supplier at one company · conformity documents of an acquirer by issuer. */
    byClientSupplier: { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
    /** Invoices of a company in one status · conformity documents of one purchase order. */
    byClientStatus: { name: 'gsi4', partitionKey: 'gsi4pk', sortKey: 'gsi4sk' },
    /** Invoices of a supplier in one status. */
    bySupplierStatus: { name: 'gsi5', partitionKey: 'gsi5pk', sortKey: 'gsi5sk' },
    /** Invoices of a company under one responsible · conformity documents by responsible (sparse). */
    byClientResponsible: { name: 'gsi8', partitionKey: 'gsi8pk', sortKey: 'gsi8sk' },
    /** The supplier directory by RUC prefix. */
    byClientRuc: { name: 'gsi10', partitionKey: 'gsi1pk', sortKey: 'rucKey' },
    /** The supplier directory by name prefix. */
    byClientName: { name: 'gsi11', partitionKey: 'gsi1pk', sortKey: 'nameKey' },
  },
  /**
   * Indexes that held invoices before their lists became list entries (ADR 0042) and hold nothing since
   * (docs/adr/0044-retired-indexes.md): a deployed table keeps them until they are deleted, one per deploy as
   * DynamoDB allows; the local stage's table goes without them (DynamoDB Local spends time on every index of a table
   * at every write, even an index the item is not in). Nothing reads or writes them.
   */
  retiredIndexes: {
    byClientType: { name: 'gsi6', partitionKey: 'gsi6pk', sortKey: 'gsi6sk' },
    byClientOffice: { name: 'gsi7', partitionKey: 'gsi7pk', sortKey: 'gsi7sk' },
    byClientDue: { name: 'gsi9', partitionKey: 'gsi1pk', sortKey: 'numberKey' },
    bySupplierDue: { name: 'gsi12', partitionKey: 'gsi2pk', sortKey: 'numberKey' },
  },
} as const;

export type IndexName = keyof typeof TABLE.indexes;
export type ItemKey = { pk: string; sk: string };

/** Lower case, no accents, single spaces: what name searches compare. */
export function normalizeForSearch(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9ñ ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The searchable start of a name, as the name-index sort keys hold it: searches compare a prefix of at most
 * 100 characters, and a sort key holds at most 1,024 bytes, so a long name (up to 1,500 characters) keeps its
 * first 200 code points there.
 */
export function nameKeyOf(name: string): string {
  return Array.from(normalizeForSearch(name)).slice(0, 200).join('').trimEnd();
}

/** The attributes of an invoice that its index keys are made from. */
export interface InvoiceIndexSource {
  readonly client: string;
  readonly supplierId: string;
  readonly supplierName: string;
  readonly type: string;
  readonly id: string;
  /** When the portal received it (the latest submission): the order of every invoice listing. */
  readonly receivedAt: string;
  readonly status: string;
  readonly officeId: string | null;
  readonly responsible: { readonly id: string } | null;
  /** When the portal expects to pay it (docs/ap-payment.md): the due-date listing's order. */
  readonly payment?: { readonly expectedPaymentDate: string | null } | null | undefined;
}

export const CONFORMITY_KINDS = ['SERVICE_SHEET', 'MATERIAL_DOCUMENT'] as const;
export type ConformityKind = (typeof CONFORMITY_KINDS)[number];
