/**
 * The single DynamoDB table: key attributes, indexes and key builders, defined once.
 * The CDK table, the local stage's CreateTable and the repositories all read this module.
 * The access-pattern table lives in docs/data-design.md.
 */
export const TABLE = {
  logicalName: 'PortalTable',
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'expiresAt',
  indexes: {
    /** Invoices of a company, newest first. */
    byClient: { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    /** Invoices of a supplier across companies, newest first. */
    bySupplier: { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    /** Invoices of one supplier at one company, newest first. */
    byClientSupplier: { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
  },
} as const;

export type IndexName = keyof typeof TABLE.indexes;
export type ItemKey = { pk: string; sk: string };

export const keys = {
  invoice(supplierId: string, type: string, invoiceId: string): ItemKey {
    return { pk: `INVOICE#${supplierId}#${type}#${invoiceId}`, sk: 'INVOICE' };
  },
  /** Index attributes an invoice item carries so that it can be listed by company and by supplier. */
  invoiceIndexes(invoice: {
    client: string;
    supplierId: string;
    type: string;
    id: string;
    issuedAt: string;
  }): Record<string, string> {
    const { byClient, bySupplier, byClientSupplier } = TABLE.indexes;
    const order = `INVOICE#${invoice.issuedAt}#${invoice.supplierId}#${invoice.type}#${invoice.id}`;
    return {
      [byClient.partitionKey]: keys.clientInvoices(invoice.client),
      [byClient.sortKey]: order,
      [bySupplier.partitionKey]: keys.supplierInvoices(invoice.supplierId),
      [bySupplier.sortKey]: order,
      [byClientSupplier.partitionKey]: keys.clientSupplierInvoices(invoice.client, invoice.supplierId),
      [byClientSupplier.sortKey]: order,
    };
  },
  clientInvoices: (client: string) => `CLIENT#${client}`,
  supplierInvoices: (supplierId: string) => `SUPPLIER#${supplierId}`,
  clientSupplierInvoices: (client: string, supplierId: string) => `CLIENT#${client}#SUPPLIER#${supplierId}`,
  invoiceOrderPrefix: 'INVOICE#',
  clients: { pk: 'CLIENTS', skPrefix: 'CLIENT#' },
  client(taxId: string): ItemKey {
    return { pk: 'CLIENTS', sk: `CLIENT#${taxId}` };
  },
  /** Read by the health check: the item need not exist, the read must succeed. */
  health: { pk: 'HEALTH', sk: 'HEALTH' } as ItemKey,
} as const;
