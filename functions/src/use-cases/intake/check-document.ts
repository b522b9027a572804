import {
  BadRequestError,
  ForbiddenError,
  ISSUE_DATE_FLOOR,
  MAX_AMOUNT,
  MAX_AMOUNT_TEXT,
  isValidRuc,
  issueDateProblem,
  peruvianDate,
  todayInLima,
  type Client,
} from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import type { IncomingDocument, IntakeDeps } from './intake-deps.js';

/**
 * Step 2 of the intake: the supplier's RUC carries its check digit and is the caller's (an admin may submit for
 * anyone), the customer is one of the group's companies, the series-number has SUNAT's format, the amounts and the
 * issue date are within bounds. Answers the customer company.
 */
export async function checkIncomingDocument(
  deps: Pick<IntakeDeps, 'clients' | 'checkInvoiceCode' | 'clock'>,
  caller: Caller,
  document: IncomingDocument,
): Promise<Client> {
  if (!isValidRuc(document.supplier.taxId))
    throw new BadRequestError('ERROR_INVALID_RUC', { ruc: document.supplier.taxId });
  if (caller.level !== 'ADMIN' && !caller.taxIds.includes(document.supplier.taxId)) {
    throw new ForbiddenError('ERROR_INVOICE_SUPPLIER_NOT_CALLER', { ruc: document.supplier.taxId });
  }
  const client = await deps.clients.get(document.customerTaxId);
  if (!client) throw new BadRequestError('ERROR_CLIENT_NOT_FOUND', { companyId: document.customerTaxId });
  if (
    !/^\d{1,8}$/.test(document.numericId) ||
    !deps.checkInvoiceCode(document.type, document.prefixId, document.numericId)
  ) {
    throw new BadRequestError('ERROR_INVOICE_ID_WITH_INVALID_FORMAT', {
      prefixId: document.prefixId,
      numericId: document.numericId,
    });
  }
  checkAmounts(document);
  checkIssueDate(document, deps.clock());
  return client;
}

function checkAmounts(document: IncomingDocument): void {
  // 0.00 only when nothing is to be paid: a transferencia gratuita, or anticipos that cover the whole.
  const nothingToPay = Boolean(document.breakdown?.freeOfCharge) || (document.breakdown?.prepaidAmount ?? 0) > 0;
  const amountAccepted = document.amount > 0 || (document.amount === 0 && nothingToPay);
  if (!amountAccepted || document.taxAmount < 0 || document.taxAmount > document.amount) {
    throw new BadRequestError('ERROR_INVALID_PARAMETER', {
      parameter: 'amount',
      reason: 'el monto debe ser positivo y el IGV no puede superarlo',
    });
  }
  for (const [field, amount] of [
    ['importe total', document.amount],
    ['monto del IGV', document.taxAmount],
  ] as const) {
    if (amount > MAX_AMOUNT) {
      throw new BadRequestError('ERROR_INVOICE_AMOUNT_OUT_OF_RANGE', { field, limit: MAX_AMOUNT_TEXT });
    }
  }
}

function checkIssueDate(document: IncomingDocument, now: Date): void {
  const dateProblem = issueDateProblem(document.issueDate, now);
  if (dateProblem === 'FUTURE') {
    throw new BadRequestError('ERROR_INVOICE_ISSUE_DATE_IN_FUTURE', {
      date: peruvianDate(document.issueDate),
      today: peruvianDate(todayInLima(now)),
    });
  }
  if (dateProblem === 'TOO_OLD') {
    throw new BadRequestError('ERROR_INVOICE_ISSUE_DATE_TOO_OLD', {
      date: peruvianDate(document.issueDate),
      floor: peruvianDate(ISSUE_DATE_FLOOR),
    });
  }
}
