import type { InvoiceType } from '../domain.js';

/** Series of documents issued from the contribuyente's own systems or an OSE: letter + 3 alphanumerics. */
const FACTURA_SERIES = /^F[A-Z0-9]{3}$/;
const BOLETA_SERIES = /^B[A-Z0-9]{3}$/;
/** Contingencia (paper or pre-printed) series are four digits, e.g. 0001. */
const CONTINGENCY_SERIES = /^\d{4}$/;
/** SEE-SOL, SUNAT's own portal: E001 for facturas and recibos por honorarios, EB01 for boletas. */
const SOL_FACTURA_SERIES = 'E001';
const SOL_BOLETA_SERIES = 'EB01';
/** The correlative: 1 to 8 digits, never zero. */
const CORRELATIVE = /^\d{1,8}$/;

function seriesAllowed(type: InvoiceType, prefixId: string): boolean {
  switch (type) {
    case 'FACTURA':
      return FACTURA_SERIES.test(prefixId) || CONTINGENCY_SERIES.test(prefixId) || prefixId === SOL_FACTURA_SERIES;
    case 'BOLETA':
      return BOLETA_SERIES.test(prefixId) || CONTINGENCY_SERIES.test(prefixId) || prefixId === SOL_BOLETA_SERIES;
    case 'NOTA_DE_CREDITO':
    case 'NOTA_DE_DEBITO':
      // A note carries the series kind of the document it modifies, whichever system issued that one.
      return (
        FACTURA_SERIES.test(prefixId) ||
        BOLETA_SERIES.test(prefixId) ||
        CONTINGENCY_SERIES.test(prefixId) ||
        prefixId === SOL_FACTURA_SERIES ||
        prefixId === SOL_BOLETA_SERIES
      );
    case 'RECIBO_POR_HONORARIOS':
      // The electronic recibo por honorarios exists only on SEE-SOL.
      return prefixId === SOL_FACTURA_SERIES;
    case 'RECIBO':
      // A recibo registered without XML: the electronic series or a printed one (four digits).
      return prefixId === SOL_FACTURA_SERIES || CONTINGENCY_SERIES.test(prefixId);
  }
}

/**
 * The invoice code format check of the spec: the series (prefixId) allowed for the document type and a
 * correlative (numericId) of 1 to 8 digits that is not zero. Letters must be upper case, as SUNAT issues them.
 */
export function checkInvoiceCode(type: InvoiceType, prefixId: string, numericId: string): boolean {
  if (!CORRELATIVE.test(numericId) || Number(numericId) === 0) return false;
  return seriesAllowed(type, prefixId);
}
