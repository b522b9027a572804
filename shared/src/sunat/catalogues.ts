import type { InvoiceType } from '../domain.js';

/**
 * SUNAT's catálogos (Anexo N.° 8 of R.S. 097-2012/SUNAT, "Catálogo de códigos", in the version SUNAT publishes
 * for UBL 2.1: anexoVII-117-2017, R.S. 117-2017/SUNAT, and its updates), as data: the codes the portal reads
 * from an electronic document and the Spanish label a person reads. Each catálogo is one group below.
 * docs/ap-documents.md says how the reader uses each one.
 *
 * Sources read: SUNAT's own validation of facturas (ValidaExprRegFactura-2.0.1.xsl, the rules SUNAT and its
 * SFS apply on reception), which uses every code below; the catálogos as tabulated from Anexo 8 by
 * github.com/EliuTimana/SunatCatalogos (data/08/05, 16, 51, 53) and packagist carloschininin/facturax-sunat.
 */

/** A code of a catálogo and what it means. */
export interface CatalogueEntry {
  readonly code: string;
  readonly label: string;
}

function byCode<T extends CatalogueEntry>(entries: readonly T[]): ReadonlyMap<string, T> {
  return new Map(entries.map((entry) => [entry.code, entry]));
}

// ---------------------------------------------------------------------------------------------------------
// Catálogo 05 — Códigos de tipos de tributos (cac:TaxScheme/cbc:ID)
// ---------------------------------------------------------------------------------------------------------

export interface TaxScheme extends CatalogueEntry {
  /** SUNAT's short name (cac:TaxScheme/cbc:Name). */
  readonly name: string;
  /** UN/ECE 5153 code (cac:TaxScheme/cbc:TaxTypeCode). */
  readonly typeCode: string;
}

export const TAX_SCHEMES = [
  { code: '1000', name: 'IGV', typeCode: 'VAT', label: 'Impuesto General a las Ventas' },
  { code: '1016', name: 'IVAP', typeCode: 'VAT', label: 'Impuesto a la Venta de Arroz Pilado' },
  { code: '2000', name: 'ISC', typeCode: 'EXC', label: 'Impuesto Selectivo al Consumo' },
  { code: '3000', name: 'IR', typeCode: 'TOX', label: 'Impuesto a la Renta' },
  { code: '7152', name: 'ICBPER', typeCode: 'OTH', label: 'Impuesto al consumo de las bolsas de plástico' },
  { code: '9995', name: 'EXP', typeCode: 'FRE', label: 'Exportación' },
  { code: '9996', name: 'GRA', typeCode: 'FRE', label: 'Gratuito' },
  { code: '9997', name: 'EXO', typeCode: 'VAT', label: 'Exonerado' },
  { code: '9998', name: 'INA', typeCode: 'FRE', label: 'Inafecto' },
  { code: '9999', name: 'OTROS', typeCode: 'OTH', label: 'Otros tributos' },
] as const satisfies readonly TaxScheme[];

/** The schemes the reader adds up, by name. */
export const TAX_SCHEME = {
  IGV: '1000',
  IVAP: '1016',
  ISC: '2000',
  INCOME_TAX: '3000',
  ICBPER: '7152',
  EXPORT: '9995',
  FREE_OF_CHARGE: '9996',
  EXEMPT: '9997',
  UNAFFECTED: '9998',
  OTHER: '9999',
} as const;

// ---------------------------------------------------------------------------------------------------------
// Catálogo 16 — Códigos de tipo de precio de venta unitario (cac:AlternativeConditionPrice/cbc:PriceTypeCode)
// ---------------------------------------------------------------------------------------------------------

export const PRICE_TYPES = [
  { code: '01', label: 'Precio unitario (incluye el IGV)' },
  { code: '02', label: 'Valor referencial unitario en operaciones no onerosas' },
] as const satisfies readonly CatalogueEntry[];

/** The price type of a line given free of charge: its price is only a reference value, nothing is paid. */
export const PRICE_TYPE_FREE_OF_CHARGE = '02';

// ---------------------------------------------------------------------------------------------------------
// Catálogo 51 — Códigos de tipo de operación (cbc:InvoiceTypeCode/@listID)
// ---------------------------------------------------------------------------------------------------------

export const OPERATION_TYPE_CODES = [
  { code: '0101', label: 'Venta interna' },
  { code: '0112', label: 'Venta interna - Sustenta gastos deducibles persona natural' },
  { code: '0113', label: 'Venta interna - NRUS' },
  { code: '0200', label: 'Exportación de bienes' },
  { code: '0201', label: 'Exportación de servicios - Prestación de servicios realizados íntegramente en el país' },
  { code: '0202', label: 'Exportación de servicios - Prestación de servicios de hospedaje no domiciliado' },
  { code: '0203', label: 'Exportación de servicios - Transporte de navieras' },
  { code: '0204', label: 'Exportación de servicios - Servicios a naves y aeronaves de bandera extranjera' },
  { code: '0205', label: 'Exportación de servicios - Servicios que conformen un paquete turístico' },
  { code: '0206', label: 'Exportación de servicios - Servicios complementarios al transporte de carga' },
  {
    code: '0207',
    label: 'Exportación de servicios - Suministro de energía eléctrica a favor de sujetos domiciliados en ZED',
  },
  {
    code: '0208',
    label: 'Exportación de servicios - Prestación de servicios realizados parcialmente en el extranjero',
  },
  { code: '0301', label: 'Operaciones con carta de porte aéreo (emitidas en el ámbito nacional)' },
  { code: '0302', label: 'Operaciones de transporte ferroviario de pasajeros' },
  { code: '0401', label: 'Ventas no domiciliados que no califican como exportación' },
  { code: '1001', label: 'Operación sujeta a detracción' },
  { code: '1002', label: 'Operación sujeta a detracción - Recursos hidrobiológicos' },
  { code: '1003', label: 'Operación sujeta a detracción - Servicios de transporte de pasajeros' },
  { code: '1004', label: 'Operación sujeta a detracción - Servicios de transporte de carga' },
  { code: '2001', label: 'Operación sujeta a percepción' },
  { code: '2100', label: 'Créditos a empresas' },
  { code: '2101', label: 'Créditos de consumo revolvente' },
  { code: '2102', label: 'Créditos de consumo no revolvente' },
  {
    code: '2103',
    label:
      'Otras operaciones no gravadas - Empresas del sistema financiero y cooperativas de ahorro y crédito no autorizadas a captar recursos del público',
  },
  { code: '2104', label: 'Otras operaciones no gravadas - Empresas del sistema de seguros' },
] as const satisfies readonly CatalogueEntry[];

/** An export (catálogo 51 codes 0200 to 0208): IGV 0, the value under tax scheme 9995. */
export function isExportOperation(code: string | null | undefined): boolean {
  return code !== null && code !== undefined && /^020[0-8]$/.test(code);
}

// ---------------------------------------------------------------------------------------------------------
// Catálogo 52 — Códigos de leyendas (cbc:Note/@languageLocaleID); only the one the reader uses
// ---------------------------------------------------------------------------------------------------------

export const LEGENDS = [
  { code: '1002', label: 'Transferencia gratuita de un bien y/o servicio prestado gratuitamente' },
] as const satisfies readonly CatalogueEntry[];

export const LEGEND_FREE_OF_CHARGE = '1002';

// ---------------------------------------------------------------------------------------------------------
// Catálogo 53 — Códigos de cargos, descuentos y otras deducciones (cac:AllowanceCharge/cbc:AllowanceChargeReasonCode)
// ---------------------------------------------------------------------------------------------------------

/**
 * What a code does to the document: a discount or a charge, an anticipo deducted, a percepción (collected
 * beside the total, never in it), a retention or a factor of the FISE decree.
 */
export type AllowanceChargeKind = 'DISCOUNT' | 'CHARGE' | 'PREPAYMENT' | 'PERCEPTION' | 'WITHHOLDING' | 'FACTOR';

export interface AllowanceChargeCode extends CatalogueEntry {
  readonly level: 'ITEM' | 'GLOBAL';
  readonly kind: AllowanceChargeKind;
  /** Whether it changes the taxable base of the IGV/IVAP (SUNAT adds it to or takes it from the base). */
  readonly affectsTaxBase: boolean;
}

export const ALLOWANCE_CHARGE_CODES = [
  {
    code: '00',
    level: 'ITEM',
    kind: 'DISCOUNT',
    affectsTaxBase: true,
    label: 'Descuentos que afectan la base imponible del IGV/IVAP',
  },
  {
    code: '01',
    level: 'ITEM',
    kind: 'DISCOUNT',
    affectsTaxBase: false,
    label: 'Descuentos que no afectan la base imponible del IGV/IVAP',
  },
  {
    code: '02',
    level: 'GLOBAL',
    kind: 'DISCOUNT',
    affectsTaxBase: true,
    label: 'Descuento global que afecta la base imponible del IGV/IVAP',
  },
  {
    code: '03',
    level: 'GLOBAL',
    kind: 'DISCOUNT',
    affectsTaxBase: false,
    label: 'Descuento global que no afecta la base imponible del IGV/IVAP',
  },
  {
    code: '04',
    level: 'GLOBAL',
    kind: 'PREPAYMENT',
    affectsTaxBase: true,
    label: 'Descuento global por anticipos gravados que afectan la base imponible del IGV/IVAP',
  },
  {
    code: '05',
    level: 'GLOBAL',
    kind: 'PREPAYMENT',
    affectsTaxBase: false,
    label: 'Descuento global por anticipos exonerados',
  },
  {
    code: '06',
    level: 'GLOBAL',
    kind: 'PREPAYMENT',
    affectsTaxBase: false,
    label: 'Descuento global por anticipos inafectos',
  },
  {
    code: '07',
    level: 'ITEM',
    kind: 'FACTOR',
    affectsTaxBase: false,
    label: 'Factor de compensación - Decreto de urgencia N.° 010-2004',
  },
  { code: '20', level: 'GLOBAL', kind: 'PREPAYMENT', affectsTaxBase: false, label: 'Anticipo de ISC' },
  { code: '45', level: 'GLOBAL', kind: 'CHARGE', affectsTaxBase: false, label: 'FISE' },
  { code: '46', level: 'GLOBAL', kind: 'CHARGE', affectsTaxBase: false, label: 'Recargo al consumo y/o propinas' },
  {
    code: '47',
    level: 'ITEM',
    kind: 'CHARGE',
    affectsTaxBase: true,
    label: 'Cargos que afectan la base imponible del IGV/IVAP',
  },
  {
    code: '48',
    level: 'ITEM',
    kind: 'CHARGE',
    affectsTaxBase: false,
    label: 'Cargos que no afectan la base imponible del IGV/IVAP',
  },
  {
    code: '49',
    level: 'GLOBAL',
    kind: 'CHARGE',
    affectsTaxBase: true,
    label: 'Cargo global que afecta la base imponible del IGV/IVAP',
  },
  {
    code: '50',
    level: 'GLOBAL',
    kind: 'CHARGE',
    affectsTaxBase: false,
    label: 'Cargo global que no afecta la base imponible del IGV/IVAP',
  },
  { code: '51', level: 'GLOBAL', kind: 'PERCEPTION', affectsTaxBase: false, label: 'Percepción venta interna' },
  {
    code: '52',
    level: 'GLOBAL',
    kind: 'PERCEPTION',
    affectsTaxBase: false,
    label: 'Percepción a la adquisición de combustible',
  },
  {
    code: '53',
    level: 'GLOBAL',
    kind: 'PERCEPTION',
    affectsTaxBase: false,
    label: 'Percepción realizada al agente de percepción con tasa especial',
  },
  {
    code: '54',
    level: 'ITEM',
    kind: 'FACTOR',
    affectsTaxBase: false,
    label: 'Factor de aportación - Decreto de urgencia N.° 010-2004',
  },
  {
    code: '61',
    level: 'GLOBAL',
    kind: 'WITHHOLDING',
    affectsTaxBase: false,
    label: 'Retención de renta por anticipos',
  },
  { code: '62', level: 'GLOBAL', kind: 'WITHHOLDING', affectsTaxBase: false, label: 'Retención del IGV' },
  {
    code: '63',
    level: 'GLOBAL',
    kind: 'WITHHOLDING',
    affectsTaxBase: false,
    label: 'Retención de renta de segunda categoría',
  },
] as const satisfies readonly AllowanceChargeCode[];

// ---------------------------------------------------------------------------------------------------------
// Look-ups
// ---------------------------------------------------------------------------------------------------------

const TAX_SCHEMES_BY_CODE = byCode<TaxScheme>(TAX_SCHEMES);
const OPERATION_TYPES_BY_CODE = byCode<CatalogueEntry>(OPERATION_TYPE_CODES);
const ALLOWANCE_CHARGES_BY_CODE = byCode<AllowanceChargeCode>(ALLOWANCE_CHARGE_CODES);

export function taxSchemeOf(code: string): TaxScheme | undefined {
  return TAX_SCHEMES_BY_CODE.get(code);
}

export function allowanceChargeCodeOf(code: string | null | undefined): AllowanceChargeCode | undefined {
  return code === null || code === undefined ? undefined : ALLOWANCE_CHARGES_BY_CODE.get(code);
}

/** The Spanish label of a catálogo 51 code; a code SUNAT has not published reads as «código N». */
export function operationTypeLabel(code: string): string {
  return OPERATION_TYPES_BY_CODE.get(code)?.label ?? `Código ${code}`;
}

/** The Spanish label of a catálogo 53 code; a code SUNAT has not published reads as «código N». */
export function allowanceChargeLabel(code: string | null): string {
  if (code === null) return 'Sin código';
  return ALLOWANCE_CHARGES_BY_CODE.get(code)?.label ?? `Código ${code}`;
}

// ---------------------------------------------------------------------------------------------------------
// The notes (issue 21, docs/ap-notes-and-risk.md): catálogos 09 and 10, and the catálogo 01 codes a note modifies.
// Source: SUNAT's "Guía de elaboración de documentos electrónicos XML - UBL 2.1" for the notas de crédito y débito;
// catálogo 09 code 13 added by R.S. 193-2020/SUNAT.
// ---------------------------------------------------------------------------------------------------------

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
  { code: '11', label: 'Ajustes de operaciones de exportación' },
  { code: '12', label: 'Ajustes afectos al IVAP' },
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
  { code: '11', label: 'Ajustes de operaciones de exportación' },
  { code: '12', label: 'Ajustes afectos al IVAP' },
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
