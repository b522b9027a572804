import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConformityDocument, keys, type ConformityKind } from '@portal/shared';
import type { Page, PageRequest } from './page.js';
import { queryIndexPage } from './query-page.js';

/** A conformity document as SAP recorded it, with the claim that keeps it on one invoice. */
export interface StoredConformityDocument extends ConformityDocument {
  /** Key of the invoice that uses it; null while it is free. */
  readonly claimedBy: string | null;
}

/** What SAP holds of a purchase order: enough to tell whether a supplier may invoice it. */
export interface StoredPurchaseOrder {
  readonly id: string;
  readonly issuerTaxId: string;
  readonly acquirerTaxId: string;
}

export interface ConformityDocumentRepository {
  listByAcquirer(kind: ConformityKind, acquirer: string, page: PageRequest): Promise<Page<ConformityDocument>>;
  listByAcquirerAndIssuer(
    kind: ConformityKind,
    acquirer: string,
    issuer: string,
    page: PageRequest,
  ): Promise<Page<ConformityDocument>>;
  listByAcquirerAndResponsible(
    kind: ConformityKind,
    acquirer: string,
    responsible: string,
    page: PageRequest,
  ): Promise<Page<ConformityDocument>>;
  /** The issuer's documents narrowed to one responsible: the issuer partition is the smaller one. */
  listByAcquirerIssuerAndResponsible(
    kind: ConformityKind,
    acquirer: string,
    issuer: string,
    responsible: string,
    page: PageRequest,
  ): Promise<Page<ConformityDocument>>;
  /** The documents of one purchase order with their claims, newest first: what the suggestions choose from. */
  listByPurchaseOrder(
    kind: ConformityKind,
    acquirer: string,
    purchaseOrder: string,
    page: PageRequest,
  ): Promise<Page<StoredConformityDocument>>;
  get(kind: ConformityKind, acquirer: string, documentId: string): Promise<StoredConformityDocument | null>;
  getPurchaseOrder(acquirer: string, id: string): Promise<StoredPurchaseOrder | null>;
}

const parseRow = (item: Record<string, unknown>) => ConformityDocument.parse(item);
const parseStored = (item: Record<string, unknown>): StoredConformityDocument => ({
  ...ConformityDocument.parse(item),
  claimedBy: typeof item.claimedBy === 'string' ? item.claimedBy : null,
});

export function makeConformityDocumentRepository(
  db: DynamoDBDocumentClient,
  table: string,
): ConformityDocumentRepository {
  return {
    listByAcquirer: (kind, acquirer, page) =>
      queryIndexPage(
        db,
        table,
        { index: 'byClient', partition: keys.conformityOfAcquirer(kind, acquirer), descending: true, parse: parseRow },
        page,
      ),
    listByAcquirerAndIssuer: (kind, acquirer, issuer, page) =>
      queryIndexPage(
        db,
        table,
        {
          index: 'byClientSupplier',
          partition: keys.conformityOfIssuer(kind, acquirer, issuer),
          descending: true,
          parse: parseRow,
        },
        page,
      ),
    listByAcquirerAndResponsible: (kind, acquirer, responsible, page) =>
      queryIndexPage(
        db,
        table,
        {
          index: 'byClientResponsible',
          partition: keys.conformityOfResponsible(kind, acquirer, responsible),
          descending: true,
          parse: parseRow,
        },
        page,
      ),
    listByAcquirerIssuerAndResponsible: (kind, acquirer, issuer, responsible, page) =>
      queryIndexPage(
        db,
        table,
        {
          index: 'byClientSupplier',
          partition: keys.conformityOfIssuer(kind, acquirer, issuer),
          filter: { attribute: 'responsible', value: responsible },
          descending: true,
          parse: parseRow,
        },
        page,
      ),
    listByPurchaseOrder: (kind, acquirer, purchaseOrder, page) =>
      queryIndexPage(
        db,
        table,
        {
          index: 'byClientStatus',
          partition: keys.conformityOfPurchaseOrder(kind, acquirer, purchaseOrder),
          descending: true,
          parse: parseStored,
        },
        page,
      ),
    async get(kind, acquirer, documentId) {
      const { Item } = await db.send(
        new GetCommand({ TableName: table, Key: keys.conformity(kind, acquirer, documentId) }),
      );
      return Item ? parseStored(Item) : null;
    },
    async getPurchaseOrder(acquirer, id) {
      const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.purchaseOrder(acquirer, id) }));
      if (!Item) return null;
      return { id: String(Item.id), issuerTaxId: String(Item.issuerTaxId), acquirerTaxId: String(Item.acquirerTaxId) };
    },
  };
}
