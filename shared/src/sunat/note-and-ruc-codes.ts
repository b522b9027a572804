import type { InvoiceType } from '../domain.js';
import type { CatalogueEntry } from './catalogues.js';

// ---------------------------------------------------------------------------------------------------------
// The notes (docs/ap-notes-and-risk.md): catálogos 09 and 10, and the catálogo 01 codes a note modifies.
// Source: SUNAT's "Guía de elaboración de documentos electrónicos XML - UBL 2.1" for the notas de crédito y débito;
// catálogo 09 code 13 added by R.S. 193-2020/SUNAT.
// ---------------------------------------------------------------------------------------------------------

/** Codes 11 and 12 of catálogos 09 and 10 alike: the same two adjustments, on a credit note or on a debit note. */
const EXPORT_AND_IVAP_ADJUSTMENTS: readonly CatalogueEntry[] = [
  { code: '11', label: 'Ajustes de operaciones de exportación' },
  { code: '12', label: 'Ajustes afectos al IVAP' },
];

/** Catálogo 09: "Códigos de tipo de nota de crédito electrónica" (cac:DiscrepancyResponse/cbc:ResponseCode). */
export const CREDIT_NOTE_REASONS: readonly CatalogueEntry[] = [
  { code: '01', label: 'Anulación de la operación' },
  { code: '02', label: 'Anulación por error en el RUC' },
  { code: '03', label: 'Corrección por error en la descripción' },
  { code: '04', label: 'Descuento global' },
  { code: '05', label: 'Descuento por ítem' },
  { code: '06', label: 'Devolución total' },
  { code: '07', label: 'Devolución por ítem' },
  { code: '08', label: 'Bonificación' },
  { code: '09', label: 'Disminución en el valor' },
  { code: '10', label: 'Otros conceptos' },
  ...EXPORT_AND_IVAP_ADJUSTMENTS,
  {
    code: '13',
    label:
      'Corrección del monto neto pendiente de pago y/o la(s) fecha(s) de vencimiento del pago único o de las cuotas y/o los montos correspondientes a cada cuota, de ser el caso',
  },
];

/**
 * Catálogo 10: "Códigos de tipo de nota de débito electrónica". Some third-party tables number the last two 10 and
 * 11; the UBL 2.1 catalogue numbers them 11 and 12, as catálogo 09 does for the same concepts.
 */
export const DEBIT_NOTE_REASONS: readonly CatalogueEntry[] = [
  { code: '01', label: 'Intereses por mora' },
  { code: '02', label: 'Aumento en el valor' },
  { code: '03', label: 'Penalidades/ otros conceptos' },
  ...EXPORT_AND_IVAP_ADJUSTMENTS,
];

/** The document types a note may modify in the portal, with their catálogo 01 code ("Tipo de documento"). */
export const NOTE_ORIGINAL_TYPES = ['FACTURA', 'BOLETA'] as const satisfies readonly InvoiceType[];
export type NoteOriginalType = (typeof NOTE_ORIGINAL_TYPES)[number];

/** Catálogo 01 codes of the documents a note may modify (cac:BillingReference/…/cbc:DocumentTypeCode). */
export const NOTE_ORIGINAL_TYPE_CODES: Readonly<Record<string, NoteOriginalType>> = {
  '01': 'FACTURA',
  '03': 'BOLETA',
};

export type NoteType = Extract<InvoiceType, 'NOTA_DE_CREDITO' | 'NOTA_DE_DEBITO'>;

/** Whether a document type is a note (catálogo 01: 07 crédito, 08 débito). */
export function isNoteType(type: InvoiceType): type is NoteType {
  return type === 'NOTA_DE_CREDITO' || type === 'NOTA_DE_DEBITO';
}

/** The catalogue of a note's reasons: 09 for credit, 10 for debit. */
export function noteReasonsOf(type: NoteType): readonly CatalogueEntry[] {
  return type === 'NOTA_DE_CREDITO' ? CREDIT_NOTE_REASONS : DEBIT_NOTE_REASONS;
}

/** The catalogue's label of a note's reason code, or null when the code is not in the note's catalogue. */
export function noteReasonLabel(type: NoteType, code: string): string | null {
  return noteReasonsOf(type).find((entry) => entry.code === code)?.label ?? null;
}

/**
 * The type of the modified document when the XML does not state its catálogo 01 code: the series says it (SUNAT's
 * series rule: F… facturas, B… boletas; E001 is SEE-SOL's factura series, EB01 its boleta series). Null when the
 * series says neither (a contingency series of four digits).
 */
export function originalTypeOfSeries(prefixId: string): NoteOriginalType | null {
  if (prefixId === 'EB01' || /^B[A-Z0-9]{3}$/.test(prefixId)) return 'BOLETA';
  if (prefixId === 'E001' || /^F[A-Z0-9]{3}$/.test(prefixId)) return 'FACTURA';
  return null;
}

/**
 * estadoRuc of SUNAT's "consulta integrada de comprobantes de pago" (validarcomprobante): the taxpayer's state in
 * the RUC register, code → SUNAT's label. Source: SUNAT's "Manual de consulta integrada de comprobantes de pago
 * por servicio web" (API validarcomprobante), table of estadoRuc.
 */
export const RUC_STATES: Readonly<Record<string, string>> = {
  '00': 'ACTIVO',
  '01': 'BAJA PROVISIONAL',
  '02': 'BAJA PROVISIONAL POR OFICIO',
  '03': 'SUSPENSION TEMPORAL',
  '10': 'BAJA DEFINITIVA',
  '11': 'BAJA DE OFICIO',
  '22': 'INHABILITADO-VENT.UNICA',
};

/** condDomiRuc of the same service: the condition of the taxpayer's fiscal address, code → SUNAT's label. */
export const RUC_ADDRESS_CONDITIONS: Readonly<Record<string, string>> = {
  '00': 'HABIDO',
  '09': 'PENDIENTE',
  '11': 'POR VERIFICAR',
  '12': 'NO HABIDO',
  '20': 'NO HALLADO',
};
