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
