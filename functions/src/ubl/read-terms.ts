import { BadRequestError, COUNT_LIMITS, CURRENCIES, TEXT_LIMITS, type Currency } from '@portal/shared';
import { NS } from './namespaces.js';
import type { ParsedDocumentReference, ParsedInstallment, ParsedPaymentTerms } from './parsed-document.js';
import { allOf, childOf, childrenOf, pathOf, textOf, type XmlElement } from './xml-tree.js';
import {
  FIELD,
  PURCHASE_ORDER_TYPE_CODES,
  PURCHASE_ORDER_TYPE_NAME,
  amountOf,
  bounded,
  cac,
  cbc,
  counted,
  dateOf,
  invalid,
  required,
  seriesAndNumber,
} from './read-fields.js';

/* A SUNAT document's currency, purchase orders, billing reference, payment terms and due dates. */

export function readCurrency(root: XmlElement, payable: XmlElement | undefined): Currency {
  const amountCurrency = bounded(
    payable?.attributes.get('currencyID')?.trim() || undefined,
    FIELD.currency,
    TEXT_LIMITS.code,
  );
  const currency = required(
    bounded(textOf(childOf(root, NS.cbc, 'DocumentCurrencyCode')), FIELD.currency, TEXT_LIMITS.code) ?? amountCurrency,
    FIELD.currency,
  );
  const allowed = CURRENCIES.find((each) => each === currency);
  if (!allowed) throw new BadRequestError('ERROR_XML_UNSUPPORTED_CURRENCY', { currency });
  // SUNAT requires every amount in the document's currency; a total in another one is not a SUNAT document.
  if (amountCurrency !== undefined && amountCurrency !== allowed) throw invalid(FIELD.currency);
  return allowed;
}

export function readPurchaseOrders(root: XmlElement): string[] {
  const fromOrders = allOf(root, cac('OrderReference'), cbc('ID')).map(textOf);
  const fromReferences = childrenOf(root, NS.cac, 'AdditionalDocumentReference')
    .filter((reference) => {
      const code = textOf(childOf(reference, NS.cbc, 'DocumentTypeCode'));
      const name = textOf(childOf(reference, NS.cbc, 'DocumentType'));
      return (
        (code !== undefined && PURCHASE_ORDER_TYPE_CODES.has(code)) ||
        (name !== undefined && PURCHASE_ORDER_TYPE_NAME.test(name))
      );
    })
    .map((reference) => textOf(childOf(reference, NS.cbc, 'ID')));
  const orders = [...fromOrders, ...fromReferences]
    .filter((order): order is string => order !== undefined)
    .map((order) => bounded(order, FIELD.purchaseOrder, TEXT_LIMITS.sapDocumentId)!);
  return counted([...new Set(orders)], FIELD.purchaseOrder, COUNT_LIMITS.purchaseOrders);
}

export function readBillingReference(root: XmlElement): ParsedDocumentReference {
  const reference = pathOf(root, cac('BillingReference'), cac('InvoiceDocumentReference'));
  // UBL 2.0 notes also name the modified document in the discrepancy response.
  const raw = required(
    textOf(childOf(reference, NS.cbc, 'ID')) ?? textOf(pathOf(root, cac('DiscrepancyResponse'), cbc('ReferenceID'))),
    FIELD.billingReference,
  );
  const discrepancy = pathOf(root, cac('DiscrepancyResponse'));
  return {
    ...seriesAndNumber(bounded(raw, FIELD.billingReference, TEXT_LIMITS.documentId)!, FIELD.billingReference),
    typeCode:
      bounded(textOf(childOf(reference, NS.cbc, 'DocumentTypeCode')), FIELD.billingReference, TEXT_LIMITS.code) ?? null,
    reasonCode:
      bounded(textOf(childOf(discrepancy, NS.cbc, 'ResponseCode')), FIELD.noteReason, TEXT_LIMITS.code) ?? null,
    reasonDescription:
      bounded(
        textOf(childOf(discrepancy, NS.cbc, 'Description')),
        FIELD.noteReason,
        TEXT_LIMITS.noteReasonDescription,
      ) ?? null,
  };
}

/** "Crédito", "credito", "CREDITO" → "credito". */
export function normalised(value: string | undefined): string | undefined {
  return value
    ?.normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

export function readPaymentTerms(root: XmlElement): ParsedPaymentTerms | null {
  const terms = childrenOf(root, NS.cac, 'PaymentTerms').filter(
    (term) => normalised(textOf(childOf(term, NS.cbc, 'ID'))) === 'formapago',
  );
  if (terms.length === 0) return null;
  let method: ParsedPaymentTerms['method'] | undefined;
  let pendingAmount: number | null = null;
  const installments: ParsedInstallment[] = [];
  for (const term of terms) {
    const meansId = textOf(childOf(term, NS.cbc, 'PaymentMeansID'));
    const means = normalised(meansId);
    if (means === 'contado') {
      method = 'CONTADO';
    } else if (means === 'credito') {
      method = 'CREDITO';
      pendingAmount = amountOf(childOf(term, NS.cbc, 'Amount'), FIELD.paymentTerms) ?? null;
    } else if (meansId !== undefined && /^cuota\d+$/.test(means ?? '')) {
      installments.push({
        id: bounded(meansId, FIELD.installment, TEXT_LIMITS.code)!,
        amount: required(amountOf(childOf(term, NS.cbc, 'Amount'), FIELD.installmentAmount), FIELD.installmentAmount),
        dueDate: required(
          dateOf(childOf(term, NS.cbc, 'PaymentDueDate'), FIELD.installmentDueDate),
          FIELD.installmentDueDate,
        ),
      });
    } else {
      throw invalid(FIELD.paymentTerms);
    }
  }
  counted(installments, FIELD.installment, COUNT_LIMITS.installments);
  // Installments without the Crédito line still mean credit.
  return { method: method ?? (installments.length > 0 ? 'CREDITO' : 'CONTADO'), pendingAmount, installments };
}

export function readDueDates(root: XmlElement, paymentTerms: ParsedPaymentTerms | null): string[] {
  const dates = [
    dateOf(childOf(root, NS.cbc, 'DueDate'), FIELD.dueDate),
    ...allOf(root, cac('PaymentMeans'), cbc('PaymentDueDate')).map((element) => dateOf(element, FIELD.dueDate)),
    ...allOf(root, cac('PaymentTerms'), cbc('PaymentDueDate')).map((element) => dateOf(element, FIELD.dueDate)),
    ...(paymentTerms?.installments.map((installment) => installment.dueDate) ?? []),
  ].filter((date): date is string => date !== undefined);
  return counted([...new Set(dates)].sort(), FIELD.dueDate, COUNT_LIMITS.dueDates);
}
