import {
  INVOICE_TYPE_LABELS,
  routes,
  rucRiskOf,
  type InvoiceDetail,
  type InvoiceType,
  type Level,
} from '@portal/shared';
import { detailMessages as text } from './messages';

/** The sidebar's title: the document type in capitals, as spec §2 shows it ('FACTURA', 'NOTA DE CRÉDITO'). */
export function documentTitle(type: InvoiceType): string {
  return INVOICE_TYPE_LABELS[type].toLocaleUpperCase('es-PE');
}

export interface ReviewAccess {
  /** The review data may be completed or changed now. */
  readonly canEdit: boolean;
  /** Why not, for a user whose role could edit otherwise (null when editing is allowed or not the user's job). */
  readonly editBlockedReason: string | null;
  readonly canApprove: boolean;
  /** SUNAT does not report the supplier ACTIVO and HABIDO: only an administrator approves, with a reason. */
  readonly canApproveDespiteRucRisk: boolean;
  readonly canReject: boolean;
  /** A FAILED SAP posting may be retried (administrators: the manifest's roles of the retry route). */
  readonly canRetrySapPosting: boolean;
  /** SUNAT may be asked again: an invoice under review that waits for SUNAT or that SUNAT did not validate. */
  readonly canRequestSunatValidation: boolean;
  /** The user's role may act on invoices at all (manifest roles of the write routes). */
  readonly isReviewer: boolean;
}

/**
 * What the user may do with the invoice now (spec §4): complete while PENDING or COMPLETED and once
 * SUNAT confirmed validity; approve only COMPLETED; reject PENDING or COMPLETED. Which levels may act
 * is read from the route manifest, so the sidebar never offers what the API would refuse.
 */
export function reviewAccess(
  invoice: Pick<InvoiceDetail, 'status' | 'certStatus' | 'sapPosting' | 'sunat'>,
  level: Level | undefined,
): ReviewAccess {
  const allowed = (roles: readonly Level[]) => level !== undefined && roles.includes(level);
  const mayUpdate = allowed(routes.updateInvoice.roles);
  const underReview = invoice.status === 'PENDING' || invoice.status === 'COMPLETED';
  let editBlockedReason: string | null = null;
  if (mayUpdate) {
    if (!underReview) editBlockedReason = text.notEditable.status;
    else if (invoice.certStatus === 'PENDING') editBlockedReason = text.notEditable.certPending;
    else if (invoice.certStatus === 'INVALID') editBlockedReason = text.notEditable.certInvalid;
  }
  return {
    canEdit: mayUpdate && editBlockedReason === null,
    editBlockedReason,
    canApprove: allowed(routes.approveInvoice.roles) && invoice.status === 'COMPLETED' && !rucRiskOf(invoice.sunat),
    canApproveDespiteRucRisk:
      allowed(routes.approveInvoiceDespiteRucRisk.roles) &&
      invoice.status === 'COMPLETED' &&
      rucRiskOf(invoice.sunat) !== null,
    canReject: allowed(routes.disapproveInvoice.roles) && underReview,
    canRetrySapPosting: allowed(routes.retrySapPosting.roles) && invoice.sapPosting?.state === 'FAILED',
    canRequestSunatValidation:
      allowed(routes.requestSunatValidation.roles) &&
      invoice.status === 'PENDING' &&
      (invoice.certStatus === 'PENDING' || invoice.certStatus === 'INVALID'),
    isReviewer: mayUpdate,
  };
}
