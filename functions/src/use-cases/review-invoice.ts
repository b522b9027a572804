import {
  BadRequestError,
  ConflictError,
  INVOICE_STATUS_LABELS,
  INVOICE_TYPE_LABELS,
  MIRO_POSTING,
  SUNAT_RECHECK_HISTORY_TITLE,
  sapPostingView,
  withPostedDocument,
  acquirerConformityView,
  sunatCheckView,
  checkConformity,
  checkNoteReviewShape,
  checkReviewShape,
  notificationAbout,
  keys,
  ForbiddenError,
  NOTE_ORIGINAL_TYPES,
  amountToPayOf,
  formatMoney,
  isAccepted,
  isNoteType,
  originalAmounts,
  rucRiskOf,
  rucRiskText,
  type LinkedInvoice,
  type NoteOriginalFacts,
  type ErrorCode,
  type Invoice,
  type InvoiceDetail,
  type InvoiceStatus,
  type MiroRequestMessage,
  type NotificationMessage,
  type RouteBody,
  type RouteQuery,
  type Routes,
  type StatusHistoryEntry,
  type SunatValidationMessage,
} from '@portal/shared';
import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import type { Logger } from '@aws-lambda-powertools/logger';
import type { Queue } from '../adapters/sqs.js';
import { outgoingItem, outgoingMessage, type Outgoing } from '../repositories/outgoing.js';
import { uploadUseItems } from '../repositories/upload-uses.js';
import type { Caller } from '../http/caller.js';
import { callerStamp } from './audit-stamp.js';
import {
  invoiceKeyOf,
  type ConformityRef,
  type InvoiceStore,
  type StoredInvoice,
} from '../repositories/invoice-store.js';
import {
  openSunatCheckItem,
  sunatCheckKeyOf,
  type SunatCheckRecord,
  type SunatChecks,
} from '../repositories/sunat-checks.js';
import type { InvoiceRef, LinkedNote, NoteLinks } from '../repositories/note-links.js';
import { newMiroOutboxRecord, type MiroOutbox, type MiroOutboxRecord } from '../repositories/miro-outbox.js';
import { loadInvoiceInReach, retryingInvoiceChange, type InvoicePath } from './invoice-access.js';

export type { InvoicePath } from './invoice-access.js';
export type UpdateBody = RouteBody<Routes['updateInvoice']>;
export type DisapproveQuery = RouteQuery<Routes['disapproveInvoice']>;
export type DisapproveBody = RouteBody<Routes['disapproveInvoice']>;

export interface ReviewDeps {
  readonly store: InvoiceStore;
  /** Sends the messages a change committed with itself (the MIRO request, the rejection's notice), and forgets them. */
  readonly outgoing: Pick<Outgoing, 'deliver'>;
  /**
   * Not used any more: the rejection's notice is committed with the rejection and sent through `outgoing`
   * (the outbox guarantee). Kept optional so that callers wiring it still compile.
   */
  readonly notificationsQueue?: Queue;
  readonly clock: () => Date;
  readonly log: Pick<Logger, 'error' | 'info'>;
  /**
   * The MIRO outbox records: the detail shows the SAP posting, the approval counts the one it creates on the
   * company's SAP posting counts, an administrator retries a failed one.
   */
  readonly miro: Pick<MiroOutbox, 'get' | 'retry' | 'approvalCount'>;
  /**
   * How long after the approval the sweeper sends the MIRO request again if nothing happened.
   * @default MIRO_POSTING.graceSeconds
   */
  readonly miroGraceMs?: number;
  /**
   * Checks an attachment the completion adds: an upload made for one of `tenants` that exists and passes
   * the attachment checks (uploads.verifyAttachment; a refused one is deleted). Only the update needs it:
   * without it, adding an attachment is a wiring fault (500), never an unchecked key.
   */
  readonly verifyAttachment?: (key: string, tenants: readonly string[], position: number) => Promise<unknown>;
  /**
   * The SUNAT checks (sunat-checks.ts): the detail of an invoice waiting for SUNAT says since when and what happens
   * next; staff ask for a new check. `isLive` tells whether the check's message is still on its way.
   */
  readonly sunat?: {
    readonly checks: Pick<SunatChecks, 'get'>;
    readonly messages: Pick<Outgoing, 'isLive'>;
    /** When the sweeper first looks at a new check (SUNAT_CHECK.staleAfterSeconds, or the stage's). */
    readonly staleAfterSeconds: number;
  };
  /** The links between notes and their originals (issue 21): the details link them, a note's approval moves its original. */
  readonly noteLinks: Pick<NoteLinks, 'notesOf' | 'writes'>;
}

/** An approval by an administrator despite the RUC risk (POST …/approve-despite-ruc-risk). */
export interface ApproveOptions {
  readonly overrideReason?: string;
}

/** What the other's detail shows of a note or an original. */
function linkedOf(invoice: Invoice): LinkedInvoice {
  return {
    supplierId: invoice.supplierId,
    type: invoice.type,
    id: invoice.id,
    status: invoice.status,
    currency: invoice.currency,
    amount: invoice.amount,
    issuedAt: invoice.issuedAt,
    amountToPay: invoice.amountToPay ?? null,
    noteReason: invoice.noteReason ?? null,
    operationType: invoice.operationType,
    purchaseOrders: invoice.purchaseOrders,
  };
}

/** The key parts of a note's original. */
function originalRefOf(note: Invoice): InvoiceRef | null {
  const reference = note.billingReference;
  return isNoteType(note.type) && reference
    ? { supplierId: note.supplierId, type: reference.type, id: reference.id }
    : null;
}

const EDITABLE: readonly InvoiceStatus[] = ['PENDING', 'COMPLETED'];

function refsOf(invoice: Pick<Invoice, 'serviceSheets' | 'materialDocs'>): ConformityRef[] {
  return [
    ...invoice.serviceSheets.map((documentId) => ({ kind: 'SERVICE_SHEET' as const, documentId })),
    ...invoice.materialDocs.map((documentId) => ({ kind: 'MATERIAL_DOCUMENT' as const, documentId })),
  ];
}

const sameRef = (a: ConformityRef) => (b: ConformityRef) => a.kind === b.kind && a.documentId === b.documentId;

/** The review of an invoice: detail, completion, approval and rejection (spec §4, §5). */
export function makeInvoiceReview(deps: ReviewDeps) {
  const { store, clock } = deps;
  const miroGraceMs = deps.miroGraceMs ?? MIRO_POSTING.graceSeconds * 1000;

  const load = (caller: Caller, path: InvoicePath): Promise<StoredInvoice> => loadInvoiceInReach(store, caller, path);

  /** A note's original in the portal, of the note's company (the only one a note may modify). */
  async function originalOf(note: Invoice): Promise<StoredInvoice | null> {
    const ref = originalRefOf(note);
    const original = ref ? await store.get(ref.supplierId, ref.type, ref.id) : null;
    return original && original.client === note.client ? original : null;
  }

  /**
   * The notes linked to an original, unfiltered; null for a type that has none, and for an original no note ever
   * linked to. Every write that links a note to an original in the portal gives it `noteAdjustments` (the note's
   * intake, in the transaction that links it; the original's intake, when notes came before it; each note's
   * approval), conditioned on the notes as read (note-intake.ts), so an original without them has no notes to read
   * (docs/data-design.md, "Notes and their original").
   */
  function linkedNotesOf(invoice: Pick<Invoice, 'supplierId' | 'type' | 'id' | 'noteAdjustments'>) {
    if (!(NOTE_ORIGINAL_TYPES as readonly string[]).includes(invoice.type) || invoice.noteAdjustments == null)
      return null;
    return deps.noteLinks.notesOf(invoice);
  }

  /** An original's notes of its own company, oldest received first (`read`: their read, begun already). */
  async function notesOf(invoice: Invoice, read = linkedNotesOf(invoice)): Promise<readonly LinkedNote[]> {
    if (!read) return [];
    const { notes } = await read;
    return notes.filter((note) => note.client === invoice.client);
  }

  /**
   * The invoice as the user sees it, with its office, SAP posting, SUNAT check and notes. `known` holds the SUNAT
   * check or the MIRO record the caller just committed with the invoice: the response shows that snapshot (not read
   * back), not a state SUNAT's or SAP's worker may already have moved it to since. What of it a supplier reads is the
   * route's answer projected for its role (schemas/visibility.ts).
   */
  async function detail(
    caller: Caller,
    invoice: Invoice,
    known: { readonly check?: SunatCheckRecord; readonly record?: MiroOutboxRecord } = {},
  ): Promise<InvoiceDetail> {
    const [officeLocation, record, check, original, notes] = await Promise.all([
      invoice.locationId ? store.officeLocation(invoice.client, invoice.locationId) : null,
      known.record ??
        (invoice.approved && deps.miro
          ? deps.miro.get(keys.miroOutbox(invoice.supplierId, invoice.type, invoice.id))
          : null),
      known.check ??
        (invoice.certStatus === 'PENDING' && deps.sunat ? deps.sunat.checks.get(sunatCheckKeyOf(invoice)) : null),
      originalOf(invoice),
      notesOf(invoice),
    ]);
    const sunatCheck = check ? sunatCheckView(check) : null;
    return {
      ...withPostedDocument(invoice, record),
      officeLocation,
      // The Ley 29623 clock with the days left today (the stage's clock).
      ...(invoice.acquirerConformity
        ? { acquirerConformity: acquirerConformityView(invoice.acquirerConformity, invoice, clock()) }
        : {}),
      ...(record ? { sapPosting: sapPostingView(record, clock()) } : {}),
      ...(sunatCheck ? { sunatCheck } : {}),
      ...(isNoteType(invoice.type) ? { original: original ? linkedOf(original) : null } : {}),
      ...(notes.length > 0 ? { linkedNotes: notes.map(linkedOf) } : {}),
    };
  }

  /**
   * What a note's approval writes to its original (issue 21): the original must be approved itself, a credit note
   * may take at most what is left to pay, and the original's amount to pay moves in the note's transaction,
   * conditioned on the original as read. A note whose original is not in the portal conditions on its absence, so
   * that an original arriving meanwhile is not left without it.
   */
  async function noteApproval(note: StoredInvoice, caller: Caller): Promise<readonly TransactWriteItem[]> {
    const ref = originalRefOf(note);
    if (!ref) return [];
    const original = await store.get(ref.supplierId, ref.type, ref.id);
    if (!original) return [deps.noteLinks.writes.originalAbsent(ref)];
    // A note of another company's document was never linked to it (intake refuses those; older data may hold one).
    if (original.client !== note.client || note.originalInPortal !== true) return [];
    if (!isAccepted(original.status)) throw new ConflictError('ERROR_NOTE_ORIGINAL_NOT_APPROVED', { original: ref.id });
    const { notes } = await deps.noteLinks.notesOf(ref);
    const others = notes.filter(
      (linked) => linked.originalInPortal === true && !(linked.type === note.type && linked.id === note.id),
    );
    const before = originalAmounts(original.amount, others);
    if (note.type === 'NOTA_DE_CREDITO' && Math.round(note.amount * 100) > Math.round(before.amountToPay * 100)) {
      throw new ConflictError('ERROR_CREDIT_NOTE_EXCEEDS_AMOUNT_TO_PAY', {
        amount: formatMoney(note.amount, note.currency),
        original: ref.id,
        left: formatMoney(amountToPayOf(original.amount, before.noteAdjustments), original.currency),
      });
    }
    const after = originalAmounts(original.amount, [...others, { ...note, status: 'ACCEPTED' }]);
    // The original changes too: its trail records what the note did to it, in the same transaction.
    const stamp = callerStamp(caller, 'NOTE_APPLIED', `${INVOICE_TYPE_LABELS[note.type]} ${note.id}`);
    return [
      deps.noteLinks.writes.originalAmounts(original, after),
      deps.noteLinks.writes.originalAudit(original, { ...original, ...after }, stamp, clock().toISOString()),
    ];
  }

  /** The check as read, for a write that must find it unchanged: absent, open (its place in the due list) or done. */
  function checkAsRead(check: SunatCheckRecord | null) {
    if (!check) return { condition: 'attribute_not_exists(pk)' };
    if (check.state === 'OPEN')
      return { condition: 'gsi1sk = :seen', values: { ':seen': check.gsi1sk ?? null } as Record<string, unknown> };
    return { condition: '#state = :done', names: { '#state': 'state' }, values: { ':done': 'DONE' } };
  }

  function historyEntry(caller: Caller, status: InvoiceStatus, additionalMessage: string | null): StatusHistoryEntry {
    return {
      status,
      title: INVOICE_STATUS_LABELS[status],
      additionalMessage,
      date: clock().toISOString(),
      by: caller.email || caller.sub,
    };
  }

  /**
   * The attachments the form adds (those the invoice does not hold yet), each an upload made for the
   * invoice's company (or, by an admin, under 'admin') that exists and passed the byte checks; the first
   * that is not refuses the whole change. Answers the keys added.
   */
  async function checkNewAttachments(
    caller: Caller,
    before: Invoice,
    attachments: readonly string[],
  ): Promise<string[]> {
    const added = attachments.filter((key) => !before.attachments.includes(key));
    if (added.length === 0) return [];
    if (!deps.verifyAttachment) throw new Error('verifyAttachment is not wired: attachments cannot be checked');
    const tenants = caller.level === 'ADMIN' ? [before.client, 'admin'] : [before.client];
    for (const [index, key] of attachments.entries()) {
      if (!before.attachments.includes(key)) await deps.verifyAttachment(key, tenants, index + 1);
    }
    return added;
  }

  function requireStatus(invoice: Invoice, allowed: readonly InvoiceStatus[], code: ErrorCode): void {
    if (!allowed.includes(invoice.status)) throw new ConflictError(code, { status: invoice.status });
  }

  return {
    async get(caller: Caller, path: InvoicePath): Promise<InvoiceDetail> {
      // The notes are read only for an original some note linked to (issue 25: most invoices have none, and a Query
      // beside every detail cost about one more GetItem under load).
      return detail(caller, await load(caller, path));
    },

    /**
     * PUT: the manager completes the invoice. Steps:
     * 1. the invoice is editable and SUNAT confirmed it;
     * 2. the form's shape fits the operation type (shared rules);
     * 3. responsible, office location, purchase orders and conformity documents exist and fit;
     * 4. one transaction writes the invoice (PENDING → COMPLETED), claims the new documents,
     *    releases the dropped ones and moves the dashboard counters.
     */
    async update(caller: Caller, path: InvoicePath, body: UpdateBody): Promise<InvoiceDetail> {
      return retryingInvoiceChange(async () => {
        const before = await load(caller, path);
        requireStatus(before, EDITABLE, 'ERROR_UPDATE_INVOICE_NOT_EDITABLE');
        if (before.certStatus === 'PENDING') throw new ConflictError('ERROR_UPDATE_INVOICE_WITH_PENDING_STATUS');
        if (before.certStatus === 'INVALID') {
          throw new ConflictError('ERROR_UPDATE_INVOICE_WITH_INVALID_CERTIFICATION_STATUS');
        }
        // A note is reviewed as an adjustment of its original (issue 21): no HES/MIGO, no amount match.
        const note = isNoteType(before.type);
        const original = note ? await originalOf(before) : null;
        const originalFacts: NoteOriginalFacts | null = original
          ? { id: original.id, operationType: original.operationType, purchaseOrders: original.purchaseOrders }
          : null;
        const shapeError = note ? checkNoteReviewShape(body, originalFacts) : checkReviewShape(body);
        if (shapeError) throw new BadRequestError(shapeError.code, shapeError.parameters);
        const added = await checkNewAttachments(caller, before, body.attachments);

        const [responsible, location] = await Promise.all([
          store.activeEmployee(before.client, body.responsibleId),
          store.officeLocation(before.client, body.locationId),
        ]);
        if (!responsible) throw new BadRequestError('ERROR_EMPLOYEE_NOT_FOUND', { responsibleId: body.responsibleId });
        if (!location || location.office !== body.officeId) {
          throw new BadRequestError('ERROR_OFFICE_LOCATION_NOT_FOUND', {
            officeId: body.officeId,
            locationId: body.locationId,
          });
        }

        const wanted = refsOf(body);
        const [documents, orders] = await Promise.all([
          store.conformityDocuments(before.client, wanted),
          store.purchaseOrdersOf(before.client, before.supplierId, body.purchaseOrders),
        ]);
        // A note's orders are its original's, or those the manager gives a note whose original is not here.
        const unknownOrder = note && !original ? body.purchaseOrders.find((order) => !orders.has(order)) : undefined;
        if (unknownOrder) throw new BadRequestError('ERROR_PURCHASE_ORDER_NOT_FOUND', { documentId: unknownOrder });
        const conformityError = note
          ? null
          : checkConformity(
              { key: invoiceKeyOf(before), ...before },
              body,
              // A document is known only under the kind it was entered as (an HES id is not a MIGO).
              new Map(
                [...documents].filter(([, doc]) =>
                  wanted.some(sameRef({ kind: doc.kind, documentId: doc.documentId })),
                ),
              ),
              orders,
            );
        if (conformityError) {
          const status =
            conformityError.code === 'ERROR_CONFORMITY_DOCUMENT_NOT_AVAILABLE' ? ConflictError : BadRequestError;
          throw new status(conformityError.code, conformityError.parameters);
        }

        const held = refsOf(before);
        const after: Invoice = {
          ...before,
          operationType: body.operationType,
          responsible,
          officeId: body.officeId,
          locationId: body.locationId,
          purchaseOrders: [...body.purchaseOrders],
          serviceSheets: [...body.serviceSheets],
          materialDocs: [...body.materialDocs],
          attachments: [...body.attachments],
          status: 'COMPLETED',
          statusHistory:
            before.status === 'PENDING'
              ? [...before.statusHistory, historyEntry(caller, 'COMPLETED', null)]
              : before.statusHistory,
        };
        const { version: _version, ...plain } = await store.commit({
          before,
          after,
          whileStatusIn: EDITABLE,
          claim: wanted.filter((ref) => !held.some(sameRef(ref))),
          release: held.filter((ref) => !wanted.some(sameRef(ref))),
          alsoPut: uploadUseItems(added, before, clock()),
          audit: callerStamp(caller, before.status === 'PENDING' ? 'COMPLETED' : 'EDITED'),
        });
        return {
          ...plain,
          officeLocation: location,
          ...(plain.acquirerConformity
            ? { acquirerConformity: acquirerConformityView(plain.acquirerConformity, plain, clock()) }
            : {}),
        };
      });
    },

    /**
     * Approve: COMPLETED → ACCEPTED, the MIRO outbox record and the queue message's outgoing item in one
     * conditional transaction, then the message. If it cannot be sent, the outgoing item stays for the relay.
     */
    async approve(caller: Caller, path: InvoicePath, options: ApproveOptions = {}): Promise<InvoiceDetail> {
      const overrideReason = options.overrideReason ?? null;
      // The manifest lets only administrators send an override; a wiring that let anyone else is refused here too.
      if (overrideReason !== null && caller.level !== 'ADMIN') throw new ForbiddenError();
      const approved = await retryingInvoiceChange(async () => {
        const before = await load(caller, path);
        requireStatus(before, ['COMPLETED'], 'ERROR_APPROVE_INVOICE_WITHOUT_COMPLETED_STATUS');
        // The RUC risk gate (issue 21): SUNAT does not report the supplier ACTIVO and HABIDO.
        const risk = rucRiskOf(before.sunat);
        if (risk && overrideReason === null) {
          throw new ConflictError('ERROR_APPROVE_INVOICE_WITH_RUC_RISK', {
            risk: rucRiskText(risk),
            estadoRuc: risk.estadoRuc,
            condDomiRuc: risk.condDomiRuc,
          });
        }
        if (!risk && overrideReason !== null) throw new ConflictError('ERROR_RUC_RISK_OVERRIDE_NOT_NEEDED');
        const noteWrites = await noteApproval(before, caller);
        const outbox = keys.miroOutbox(before.supplierId, before.type, before.id);
        const now = clock();
        const by = caller.email || caller.sub;
        const override =
          risk && overrideReason !== null
            ? {
                by,
                at: now.toISOString(),
                reason: overrideReason,
                estadoRuc: risk.estadoRuc,
                condDomiRuc: risk.condDomiRuc,
              }
            : null;
        const request: MiroRequestMessage = {
          supplierId: before.supplierId,
          invoiceType: before.type,
          invoiceId: before.id,
          outboxKey: outbox.pk,
        };
        const message = outgoingMessage('miroRequests', request, clock());
        const record = newMiroOutboxRecord(before, by, now, miroGraceMs);
        const stored = await store.commit({
          before,
          after: {
            ...before,
            status: 'ACCEPTED',
            approved: true,
            approvedAt: now.toISOString(),
            statusHistory: [
              ...before.statusHistory,
              historyEntry(
                caller,
                'ACCEPTED',
                override ? `Excepción por el estado del RUC (${rucRiskText(override)}): ${override.reason}` : null,
              ),
            ],
            ...(override ? { rucRiskOverride: override } : {}),
          },
          whileStatusIn: ['COMPLETED'],
          create: record,
          alsoPut: [outgoingItem(message)],
          alsoWrite: noteWrites,
          alsoCount: [deps.miro.approvalCount(before.client)],
          audit: override
            ? callerStamp(caller, 'APPROVED_DESPITE_RUC_RISK', override.reason)
            : callerStamp(caller, 'APPROVED'),
        });
        return { stored, message, record };
      });

      // Sent now; if the send fails, the committed outgoing item stays for the relay (the outbox guarantee).
      await deps.outgoing.deliver([approved.message]);
      // The supplier hears of the approval from the MIRO worker, with SAP's document number.
      const { version: _version, ...plain } = approved.stored;
      return detail(caller, plain, { record: approved.record });
    },

    /**
     * An administrator's retry of a FAILED SAP posting: a new round of attempts, its MIRO request committed
     * with the change and sent. Idempotent: a posting already under way (PENDING, POSTING — another
     * administrator's retry among them) is left as it is and shown; a POSTED one or none is a 409.
     */
    async retrySapPosting(caller: Caller, path: InvoicePath): Promise<InvoiceDetail> {
      if (!deps.miro) throw new Error('miro is not wired: the SAP posting cannot be retried');
      const invoice = await load(caller, path);
      const key = keys.miroOutbox(invoice.supplierId, invoice.type, invoice.id);
      const record = await deps.miro.get(key);
      if (!record) throw new ConflictError('ERROR_SAP_POSTING_NOT_FOUND', { status: invoice.status });
      if (record.state === 'POSTED')
        throw new ConflictError('ERROR_SAP_POSTING_ALREADY_POSTED', { document: record.sapDocument?.number ?? '' });
      if (record.state === 'FAILED') {
        const request: MiroRequestMessage = {
          supplierId: invoice.supplierId,
          invoiceType: invoice.type,
          invoiceId: invoice.id,
          outboxKey: key.pk,
        };
        const message = outgoingMessage('miroRequests', request, clock());
        if (await deps.miro.retry(record, caller.email || caller.sub, clock(), miroGraceMs, message)) {
          deps.log.info('SAP posting retried', { outbox: key.pk, by: caller.sub });
          await deps.outgoing.deliver([message]);
        }
      }
      const { version: _version, ...plain } = await load(caller, path);
      return detail(caller, plain);
    },

    /**
     * Staff ask SUNAT again about an invoice under review that waits for SUNAT (certStatus PENDING) or that SUNAT
     * did not validate (INVALID: SUNAT may not know a document issued minutes ago). Idempotent: a check already
     * queued or under way (its message still on its way) is left as it is and answered; else one transaction
     * writes the invoice (certStatus PENDING, a history entry naming who asked), its check (OPEN, as read) and the
     * SUNAT message, which is then sent. Two requests at once: one writes, the other reloads and finds it queued.
     */
    async requestSunatValidation(caller: Caller, path: InvoicePath): Promise<InvoiceDetail> {
      const sunat = deps.sunat;
      if (!sunat) throw new Error('sunat is not wired: a new SUNAT check cannot be requested');
      const requested = await retryingInvoiceChange(async () => {
        const before = await load(caller, path);
        if (before.certStatus === 'VALID') throw new ConflictError('ERROR_SUNAT_VALIDATION_ALREADY_VALID');
        requireStatus(before, ['PENDING'], 'ERROR_SUNAT_VALIDATION_NOT_UNDER_REVIEW');
        const key = sunatCheckKeyOf(before);
        const check = await sunat.checks.get(key);
        const queued =
          before.certStatus === 'PENDING' &&
          check?.state === 'OPEN' &&
          check.outgoingId !== null &&
          (await sunat.messages.isLive('sunatValidation', check.outgoingId));
        if (queued) return { stored: before, message: null, check };

        const now = clock();
        const body: SunatValidationMessage = {
          supplierId: before.supplierId,
          invoiceType: before.type,
          invoiceId: before.id,
        };
        const message = outgoingMessage('sunatValidation', body, now);
        const by = caller.email || caller.sub;
        const entry: StatusHistoryEntry = {
          ...historyEntry(caller, before.status, before.certStatus === 'INVALID' ? before.statusMessage : null),
          title: SUNAT_RECHECK_HISTORY_TITLE,
        };
        const opened = openSunatCheckItem(before, {
          pendingSince: now,
          dueAt: new Date(now.getTime() + sunat.staleAfterSeconds * 1000),
          outgoingId: message.id,
          requestedBy: by,
        });
        const stored = await store.commit({
          before,
          // SUNAT's previous answer (its refusal, or that it could not be asked) stays in the history entry.
          after: {
            ...before,
            certStatus: 'PENDING',
            statusMessage: null,
            statusHistory: [...before.statusHistory, entry],
          },
          whileStatusIn: ['PENDING'],
          alsoPut: [outgoingItem(message)],
          putIf: [{ item: opened, ...checkAsRead(check) }],
          audit: callerStamp(caller, 'SUNAT_RECHECK_REQUESTED'),
        });
        return { stored, message, check: opened };
      });
      if (requested.message) {
        deps.log.info('new SUNAT check requested', { invoice: invoiceKeyOf(requested.stored), by: caller.sub });
        // Sent now; if the send fails, the committed outgoing item stays for the relay.
        await deps.outgoing.deliver([requested.message]);
      }
      const { version: _version, ...plain } = requested.stored;
      return detail(caller, plain, { check: requested.check });
    },

    /**
     * Reject: PENDING or COMPLETED → REJECTED with the reason; the conformity documents are released.
     * noRejection=true lets the supplier submit the same document again (disapprovedWithoutRejection).
     */
    async disapprove(
      caller: Caller,
      path: InvoicePath,
      query: DisapproveQuery,
      body: DisapproveBody,
    ): Promise<InvoiceDetail> {
      const rejected = await retryingInvoiceChange(async () => {
        const before = await load(caller, path);
        requireStatus(before, EDITABLE, 'ERROR_DISAPPROVE_INVOICE_WITHOUT_PENDING_OR_COMPLETED_STATUS');
        const after: Invoice = {
          ...before,
          status: 'REJECTED',
          statusMessage: body.reason,
          disapprovedWithoutRejection: query.noRejection,
          serviceSheets: [],
          materialDocs: [],
          statusHistory: [...before.statusHistory, historyEntry(caller, 'REJECTED', body.reason)],
        };
        // The supplier's notice is committed with the rejection: sent now, or by the outbox sweeper.
        // It says whether the supplier may send the document again (noRejection) or the rejection is definitive.
        const notice: NotificationMessage = {
          ...notificationAbout('INVOICE_REJECTED', after, body.reason, clock()),
          retryAllowed: query.noRejection,
        };
        const message = outgoingMessage('notifications', notice, clock());
        const stored = await store.commit({
          before,
          after,
          whileStatusIn: EDITABLE,
          release: refsOf(before),
          alsoPut: [outgoingItem(message)],
          audit: callerStamp(caller, query.noRejection ? 'DISAPPROVED' : 'REJECTED', body.reason),
        });
        return { stored, message };
      });
      await deps.outgoing.deliver([rejected.message]);
      const { version: _version, ...plain } = rejected.stored;
      return detail(caller, plain);
    },
  };
}
