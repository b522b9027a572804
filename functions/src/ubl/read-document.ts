import { TEXT_LIMITS } from '@portal/shared';
import { NS } from './namespaces.js';
import type { ParsedDocument } from './parsed-document.js';
import { childOf, pathOf, textOf, type XmlElement } from './xml-tree.js';
import {
  FIELD,
  IGV_SCHEME,
  amountOf,
  bounded,
  cac,
  cbc,
  dateOf,
  required,
  rootKind,
  seriesAndNumber,
  taxOfScheme,
} from './read-fields.js';
import { readCustomer, readSupplier, readType } from './read-parties.js';
import { isHonorarios, readIgvEvidence, readWithholding, type GrossAndNet } from './read-honorarios.js';
import {
  readBillingReference,
  readCurrency,
  readDueDates,
  readPaymentTerms,
  readPurchaseOrders,
} from './read-terms.js';
import { monetaryTotalOf, readAmounts, readDetraction, readOperationType } from './read-amounts.js';

export { isUnreadContent } from './read-fields.js';

/*
 * Reads the fields the portal needs from the element tree of a SUNAT document, in both layouts in
 * circulation: UBL 2.1 (SUNAT's current guides) and UBL 2.0 (documents issued before 2019, still sent for
 * late payments and notes), which names the parties with cbc:CustomerAssignedAccountID and
 * cbc:AdditionalAccountID and sometimes omits cbc:InvoiceTypeCode.
 *
 * Recibo por honorarios electrónico (RHE). SUNAT issues it only on SEE-SOL, in series E001, and lets both
 * parties download its XML. We found neither SUNAT's schema for that XML nor a public sample of it, so the
 * reading below is modelled on what is known of the document rather than on a schema: a UBL Invoice (2.0
 * layout) in ISO-8859-1, issued by a person with a RUC starting with 10, without IGV (honorarios are 4ta
 * categoría income, not a sale), the total honorarios in cac:LegalMonetaryTotal, the retención del impuesto a
 * la renta de 4ta categoría (8 %) and the net paid to the issuer as cbc:PayableAmount. Its type code is
 * SUNAT's '02' (catálogo 01) or 'R1' (the code SUNAT's validity service uses for it), but SOL may write a
 * factura's '01' on it: `isHonorarios` tells such a document, or one without a code, from a factura by what it
 * says of itself, and `readWithholding` reads the retención in each shape we accept. What was modelled, and
 * from which source, is in docs/ap-documents.md («Recibo por honorarios electrónico»).
 */

/** The portal's reading of a SUNAT document's element tree. Throws BadRequestError with an ERROR_XML_* code. */
export function readSunatDocument(root: XmlElement): ParsedDocument {
  const detraction = readDetraction(root);
  const kind = rootKind(root);
  const { prefixId, numericId } = seriesAndNumber(
    required(bounded(textOf(childOf(root, NS.cbc, 'ID')), FIELD.id, TEXT_LIMITS.documentId), FIELD.id),
    FIELD.id,
  );
  const issueDate = required(dateOf(childOf(root, NS.cbc, 'IssueDate'), FIELD.issueDate), FIELD.issueDate);
  const supplier = readSupplier(root);
  const customer = readCustomer(root);

  const igv = taxOfScheme(root, IGV_SCHEME, FIELD.taxAmount);
  const payable =
    (kind === 'DebitNote' ? pathOf(root, cac('RequestedMonetaryTotal'), cbc('PayableAmount')) : undefined) ??
    pathOf(root, cac('LegalMonetaryTotal'), cbc('PayableAmount'));
  const totals = (): GrossAndNet => {
    const total = monetaryTotalOf(root, kind);
    return {
      gross:
        amountOf(childOf(total, NS.cbc, 'LineExtensionAmount'), FIELD.saleValue) ??
        amountOf(childOf(total, NS.cbc, 'TaxInclusiveAmount'), FIELD.taxInclusiveAmount),
      payable: amountOf(payable, FIELD.payableAmount),
    };
  };
  // Read as a recibo's at most once, and only when the type depends on it or it is one.
  let asRecibo: number | undefined;
  const reciboWithholding = () => (asRecibo ??= readWithholding(root, true, totals));
  const type = readType(root, kind, prefixId, () =>
    isHonorarios(prefixId, supplier, readIgvEvidence(root), () => reciboWithholding() > 0),
  );
  const recibo = type === 'RECIBO_POR_HONORARIOS';
  const incomeTaxWithholding = recibo ? reciboWithholding() : readWithholding(root, false, totals);

  const currency = readCurrency(root, payable);
  const payableAmount = required(amountOf(payable, FIELD.payableAmount), FIELD.payableAmount);
  const operationType = readOperationType(root);
  const amounts = readAmounts(root, kind, {
    igv: igv.amount,
    payableAmount,
    currency,
    recibo,
    withheld: incomeTaxWithholding,
  });

  const paymentTerms = readPaymentTerms(root);
  return {
    type,
    ublVersion: bounded(textOf(childOf(root, NS.cbc, 'UBLVersionID')), FIELD.ublVersion, TEXT_LIMITS.code) ?? null,
    prefixId,
    numericId,
    issueDate,
    dueDates: readDueDates(root, paymentTerms),
    currency,
    supplier,
    customer,
    taxAmount: igv.amount,
    incomeTaxWithholding,
    payableAmount,
    purchaseOrders: readPurchaseOrders(root),
    billingReference: kind === 'Invoice' ? null : readBillingReference(root),
    paymentTerms,
    operationType,
    ...amounts,
    ...(detraction ? { detraction } : {}),
  };
}
