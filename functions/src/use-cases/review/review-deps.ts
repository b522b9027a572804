import type { Logger } from '@aws-lambda-powertools/logger';
import type { RouteBody, RouteQuery, Routes } from '@portal/shared';
import type { InvoiceStore } from '../../repositories/invoice-store.js';
import type { MiroOutbox } from '../../repositories/miro-outbox.js';
import type { NoteLinks } from '../../repositories/note-links.js';
import type { Outgoing } from '../../repositories/outgoing.js';
import type { SunatChecks } from '../../repositories/sunat-checks.js';

export type { InvoicePath } from '../invoice-access.js';
export type UpdateBody = RouteBody<Routes['updateInvoice']>;
export type DisapproveQuery = RouteQuery<Routes['disapproveInvoice']>;
export type DisapproveBody = RouteBody<Routes['disapproveInvoice']>;

/**
 * The ports of the review of an invoice (spec §4, §5): detail, completion, approval, retry, SUNAT check, rejection.
 * Each use case takes the part of them it needs (its own `Pick`); review.factory.ts wires them all once.
 */
export interface ReviewDeps {
  readonly store: InvoiceStore;
  /** Sends the messages a change committed with itself (the MIRO request, the rejection's notice), and forgets them. */
  readonly outgoing: Pick<Outgoing, 'deliver'>;
  readonly clock: () => Date;
  readonly log: Pick<Logger, 'error' | 'info'>;
  /**
   * The MIRO outbox records: the detail shows the SAP posting, the approval counts the one it creates on the
   * company's SAP posting counts, an administrator retries a failed one.
   */
  readonly miro: Pick<MiroOutbox, 'get' | 'retry' | 'approvalCount'>;
  /**
   * How long after the approval the sweeper sends the MIRO request again if nothing happened.
   * @default MIRO_TIMING.defaultGraceMs
   */
  readonly miroGraceMs?: number;
  /**
   * Checks an attachment the completion adds: an upload made for one of `tenants` that exists and passes
   * the attachment checks (uploads/verify-upload.ts verifyAttachment; a refused one is deleted). Only the update needs it:
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
  /**
   * The links between notes and their originals (a note adjusts its original): the details link them, a note's
   * approval moves its original.
   */
  readonly noteLinks: Pick<NoteLinks, 'notesOf' | 'writes'>;
}

/** What the detail of an invoice reads: its office, SAP posting, SUNAT check and linked notes. */
export type DetailDeps = Pick<ReviewDeps, 'store' | 'clock' | 'sunat'> & {
  readonly miro: Pick<MiroOutbox, 'get'>;
  readonly noteLinks: Pick<NoteLinks, 'notesOf'>;
};
