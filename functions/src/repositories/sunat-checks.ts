import type { AuditStamp } from './invoice-audit.js';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  SUNAT_CHECK,
  keys,
  toInvoiceParams,
  type Invoice,
  type InvoiceRef,
  type InvoiceRefParams,
  type SunatCheckRecordView,
} from '@portal/shared';
import { dueSortKey, makeDueRecords } from './due-records.js';
import type { ExistingInvoice } from './intake-store.js';
import type { OutgoingMessage } from './outgoing.js';
import type { TransactItem } from './transaction.js';

/**
 * The SUNAT check of an invoice (docs/data-design.md, "SUNAT checks"): OPEN from the change that leaves its certStatus
 * PENDING (intake, a staff request; the seed) until SUNAT's verdict is written (DONE, in the verdict's transaction).
 * While OPEN it is due for the outbox sweeper at `dueAt` (byClient `SUNAT#DUE`), which sends the SUNAT message again
 * when the one on record (`outgoingId`) is gone without a verdict.
 */
export interface SunatCheckRecord extends SunatCheckRecordView, InvoiceRefParams {
  readonly pk: string;
  readonly sk: string;
  readonly client: string;
  /** The id of the SUNAT message's outgoing item (outgoing.ts); null when none was ever written (the seed). */
  readonly outgoingId: string | null;
  /** Messages the sweeper sent again during this wait: each one doubles the next wait. */
  readonly redrives: number;
  readonly lastError?: string | null;
  /** The byClient sort key, `{dueAt}#{pk}`, while OPEN. */
  readonly gsi1sk?: string | null;
}

/** The first wait of a SUNAT check: SUNAT_CHECK.staleAfterSeconds, or the stage's SUNAT_RECHECK_SECONDS (the local stage). */
export function sunatRecheckBaseSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const seconds = Number(env[SUNAT_CHECK.timeScaleEnv]);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : SUNAT_CHECK.staleAfterSeconds;
}

type InvoiceOfClient = InvoiceRef & { readonly client: string };
type Key = { pk: string; sk: string };

export const sunatCheckKeyOf = (invoice: InvoiceRef): Key =>
  keys.sunatCheck(invoice.supplierId, invoice.type, invoice.id);

/**
 * The OPEN check written with the change that leaves the invoice waiting for SUNAT: due at `dueAt`, with the
 * outgoing item of the SUNAT message committed in the same transaction (null: none, the seed's invoices).
 */
export function openSunatCheckItem(
  invoice: InvoiceOfClient,
  options: {
    readonly pendingSince: Date;
    readonly dueAt: Date;
    readonly outgoingId: string | null;
    readonly requestedBy?: string | null;
  },
): SunatCheckRecord & Record<string, unknown> {
  const key = sunatCheckKeyOf(invoice);
  const dueAt = options.dueAt.toISOString();
  const pendingSince = options.pendingSince.toISOString();
  return {
    ...key,
    ...keys.sunatCheckIndexes(key.pk, dueAt),
    state: 'OPEN',
    ...toInvoiceParams(invoice),
    client: invoice.client,
    pendingSince,
    dueAt,
    outgoingId: options.outgoingId,
    redrives: 0,
    requestedBy: options.requestedBy ?? null,
    requestedAt: options.requestedBy ? pendingSince : null,
    lastFailureAt: null,
    lastError: null,
  };
}

/** The check closed by SUNAT's verdict, written in the verdict's transaction: out of the due index. */
export function closedSunatCheckItem(invoice: InvoiceOfClient, at: Date): Record<string, unknown> {
  return {
    ...sunatCheckKeyOf(invoice),
    state: 'DONE',
    ...toInvoiceParams(invoice),
    client: invoice.client,
    closedAt: at.toISOString(),
  };
}

/** What the intake's store writes (intake-store.ts): the invoice and the items put with it. */
interface CreatesInvoices {
  create(
    invoice: Invoice,
    replacing: ExistingInvoice | null,
    audit: AuditStamp,
    alsoPut?: readonly Record<string, unknown>[],
    alsoWrite?: readonly TransactItem[],
    options?: { readonly supplierInDirectory?: boolean },
  ): Promise<void>;
}

/**
 * The intake's store, writing with each new invoice that waits for SUNAT its SUNAT check, in the same transaction
 * as the invoice and its SUNAT message (whose outgoing item the check records): the outbox sweeper's due list.
 */
export function withSunatCheck<S extends CreatesInvoices>(
  store: S,
  options: { readonly clock: () => Date; readonly staleAfterSeconds: number },
): S {
  const sunatMessages = `${keys.outgoingQueue('sunatValidation')}#`;
  return {
    ...store,
    async create(invoice, replacing, audit, alsoPut = [], alsoWrite = [], createOptions = {}) {
      if (invoice.certStatus !== 'PENDING') {
        return store.create(invoice, replacing, audit, alsoPut, alsoWrite, createOptions);
      }
      const message = alsoPut.find((item) => String(item.pk).startsWith(sunatMessages));
      const now = options.clock();
      const check = openSunatCheckItem(invoice, {
        pendingSince: now,
        dueAt: new Date(now.getTime() + options.staleAfterSeconds * 1000),
        outgoingId: message ? String(message.pk).slice(sunatMessages.length) : null,
      });
      return store.create(invoice, replacing, audit, [...alsoPut, check], alsoWrite, createOptions);
    },
  };
}

/**
 * The condition of every move of a check the sweeper read: still open and still at the place in the due index it
 * was seen at (else a verdict, a staff request or another run moved it), with the update's own `values`.
 */
function openAsSeen(record: SunatCheckRecord, values: Record<string, unknown>) {
  return {
    ConditionExpression: 'gsi1sk = :seen AND #state = :open',
    ExpressionAttributeNames: { '#state': 'state' },
    ExpressionAttributeValues: { ...values, ':seen': record.gsi1sk ?? null, ':open': 'OPEN' },
  };
}

export function makeSunatChecks(db: DynamoDBDocumentClient, table: string) {
  const { get, due, updateIf, commitWithMessage } = makeDueRecords<SunatCheckRecord>(db, table, keys.sunatDue);

  return {
    get,

    /** Open checks due before `now`, oldest first. */
    due,

    /** Looked at by the sweeper, its message still on its way: not again before `until`, unless it moved (false). */
    async postpone(record: SunatCheckRecord, until: Date): Promise<boolean> {
      const at = until.toISOString();
      return updateIf({
        Key: record,
        UpdateExpression: 'SET gsi1sk = :next, dueAt = :at',
        ...openAsSeen(record, { ':next': dueSortKey(record, at), ':at': at }),
      });
    },

    /** The invoice no longer waits (a verdict written without closing it, or gone): out of the due index. */
    async close(record: SunatCheckRecord, at: Date): Promise<boolean> {
      return updateIf({
        Key: record,
        UpdateExpression: 'SET #state = :done, closedAt = :at REMOVE gsi1pk, gsi1sk',
        ...openAsSeen(record, { ':done': 'DONE', ':at': at.toISOString() }),
      });
    },

    /**
     * The sweeper sends the SUNAT message again: the check records the new message and its next look (doubled
     * wait), and the message's outgoing item is committed with it. False when the check moved since it was read
     * (a verdict, a staff request, another sweeper run): nothing is written and nothing must be sent.
     */
    async redrive(record: SunatCheckRecord, message: OutgoingMessage, nextLook: Date): Promise<boolean> {
      const at = nextLook.toISOString();
      return commitWithMessage(
        {
          Update: {
            Key: { pk: record.pk, sk: record.sk },
            UpdateExpression: 'SET outgoingId = :id, gsi1sk = :next, dueAt = :at ADD redrives :one',
            ...openAsSeen(record, { ':id': message.id, ':next': dueSortKey(record, at), ':at': at, ':one': 1 }),
          },
        },
        message,
      );
    },

    /** SUNAT could not be asked (the worker's failed attempt): the detail says so until the wait ends. */
    async recordFailure(key: Key, reason: string, at: Date): Promise<void> {
      await updateIf({
        Key: key,
        UpdateExpression: 'SET lastFailureAt = :at, lastError = :reason',
        ConditionExpression: '#state = :open',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':at': at.toISOString(), ':reason': reason.slice(0, 500), ':open': 'OPEN' },
      });
    },
  };
}

export type SunatChecks = ReturnType<typeof makeSunatChecks>;
