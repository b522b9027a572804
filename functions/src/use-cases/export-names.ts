import type { ExportFormat, ExportList } from '@portal/shared';

// What the API and the worker both say of an export's file, without the file writer (and its XLSX library).

/** The sheet's name and the start of the file's name. */
export const EXPORT_TITLES: Record<ExportList, string> = {
  invoices: 'Comprobantes',
  hes: 'Conformidades HES',
  migo: 'Conformidades MIGO',
  suppliers: 'Proveedores',
};

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
};
