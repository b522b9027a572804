import { counted, type ConformityKind } from '@portal/shared';

/** What one of the two conformity screens (HES or MIGO) calls its documents. */
interface KindTexts {
  readonly title: string;
  readonly description: (company: string) => string;
  readonly tableLabel: string;
  /** Header of the document number column, short so the eight columns fit a laptop screen. */
  readonly documentColumn: string;
  readonly loading: string;
  readonly empty: string;
  readonly noMatch: string;
}

const KIND_TEXTS: Record<ConformityKind, KindTexts> = {
  SERVICE_SHEET: {
    title: 'Conformidades - HES',
    description: (company) => `Hojas de entrada de servicio (HES) que SAP registra para ${company}`,
    tableLabel: 'Hojas de entrada de servicio',
    documentColumn: 'N° HES',
    loading: 'Cargando hojas de entrada de servicio...',
    empty: 'No hay hojas de entrada de servicio registradas para esta sociedad.',
    noMatch: 'Ninguna hoja de entrada de servicio coincide con los filtros.',
  },
  MATERIAL_DOCUMENT: {
    title: 'Conformidades - MIGO',
    description: (company) => `Documentos de material (MIGO) que SAP registra para ${company}`,
    tableLabel: 'Documentos de material',
    documentColumn: 'N° MIGO',
    loading: 'Cargando documentos de material...',
    empty: 'No hay documentos de material registrados para esta sociedad.',
    noMatch: 'Ningún documento de material coincide con los filtros.',
  },
};

/** The texts of the HES and MIGO screens (spec §2 "Service sheets", "Material documents"). */
export const conformityMessages = {
  kind: KIND_TEXTS,
  columns: {
    fiscalYear: 'Ejercicio',
    issuer: 'RUC emisor',
    acquirer: 'RUC adquirente',
    deliveryNote: 'Guía de remisión',
    purchaseOrder: 'Orden de compra',
    amount: 'Monto',
    associatedInvoice: 'Comprobante asociado',
  },
  noDeliveryNote: '—',
  available: 'Disponible',
  openInvoice: (invoice: string) => `Ver comprobante ${invoice}`,
  refresh: 'Actualizar',
  clearFilters: 'Limpiar filtros',
  filters: {
    responsibleLabel: 'Responsable de la orden de compra',
    responsiblePlaceholder: 'Buscar por nombre',
    responsibleLoading: 'Buscando responsables...',
    responsibleError: 'No se pudieron cargar los responsables.',
    responsibleEmpty: 'Ningún responsable coincide con el nombre.',
    responsibleHint: 'Elige un responsable de la lista para filtrar.',
    responsibleClear: 'Borrar responsable',
    responsibleSelected: 'Seleccionado',
    responsibleResults: (count: number) => counted(count, { one: 'responsable', other: 'responsables' }),
    issuerLabel: 'RUC emisor',
    issuerPlaceholder: '11 dígitos',
    issuerClear: 'Borrar RUC emisor',
    issuerInvalid: 'El RUC tiene 11 dígitos.',
  },
  noCompany: 'Tu usuario no tiene una sociedad activa.',
} as const;
