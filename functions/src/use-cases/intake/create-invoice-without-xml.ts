import { BadRequestError, type Invoice } from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import { noteOfForm } from '../note-intake.js';
import type { IntakeDeps } from './intake-deps.js';
import { refusingUpload } from './refusing-upload.js';
import { registerInvoice } from './register-invoice.js';
import { typedPayment, type WithoutXmlBody } from './typed-payment.js';

/** POST /invoices/without-xml: the document typed in 'Nuevo comprobante' with its uploaded PDF. */
export async function createInvoiceWithoutXml(
  deps: IntakeDeps,
  caller: Caller,
  body: WithoutXmlBody,
): Promise<Invoice> {
  const upload = await deps.verifyUpload(body.pdfUrl, 'INVOICE_PDF', caller);
  return refusingUpload(deps, [upload.key], async (progress) => {
    // The business name is the one the directory knows the RUC by; a typed one only names a RUC it does not know.
    const known = await deps.profiles.getMany([body.supplierTaxId]);
    const supplierName = known.get(body.supplierTaxId)?.name ?? body.supplierName;
    if (!supplierName) throw new BadRequestError('ERROR_MISSING_PARAMETER', { parameter: 'supplierName' });
    return registerInvoice(
      deps,
      caller,
      {
        type: body.type,
        prefixId: body.prefixId,
        numericId: body.numericId,
        issueDate: body.issueDate,
        currency: body.currency,
        supplier: { taxId: body.supplierTaxId, name: supplierName },
        customerTaxId: body.clientTaxId,
        taxAmount: body.taxAmount,
        amount: body.amount,
        purchaseOrders: [],
        notes: body.notes ?? null,
        ...noteOfForm(body),
        ...typedPayment(body),
      },
      { xmlUrl: null, pdfUrl: upload.key },
      progress,
    );
  });
}
