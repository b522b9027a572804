import type { RouteId } from './manifest.js';

/**
 * Examples of the bodies of the routes a supplier's API client calls (docs/openapi.json, docs/integrators.md).
 * A unit test parses each through its route's schema, so they cannot drift from the contract.
 */
export interface RouteExamples {
  readonly request?: unknown;
  readonly response?: unknown;
}

const SUPPLIER = '20100070970';
const CLIENT = '20512345678';
const XML_KEY = `uploads/${SUPPLIER}/2026/01/15/0b9f3c7e-2d1a-4c55-9e7a-3f2b8a1d6c40/F001-00001234.xml`;

const INVOICE = {
  id: 'F001-00001234',
  prefixId: 'F001',
  numericId: '00001234',
  type: 'FACTURA',
  status: 'PENDING',
  statusMessage: null,
  certStatus: 'VALID',
  approved: false,
  supplierId: SUPPLIER,
  supplierName: 'Proveedora Andina S.A.C.',
  client: CLIENT,
  clientName: 'Corporación del Grupo S.A.',
  responsible: null,
  officeId: null,
  locationId: null,
  operationType: null,
  currency: 'PEN',
  amount: 1180,
  taxAmount: 180,
  serviceSheets: [],
  materialDocs: [],
  purchaseOrders: [],
  attachments: [],
  issuedAt: '2026-01-15',
  receivedAt: '2026-01-15T14:03:12.000Z',
  scheduledAt: null,
  paidAt: null,
  xmlUrl: XML_KEY,
  pdfUrl: null,
  disapprovedWithoutRejection: false,
  notes: null,
} as const;

const HISTORY = [
  {
    status: 'PENDING',
    title: 'Comprobante recibido',
    additionalMessage: null,
    date: '2026-01-15T14:03:12.000Z',
    by: 'ERP de Proveedora Andina',
  },
];

export const OPENAPI_EXAMPLES: Partial<Record<RouteId, RouteExamples>> = {
  createUpload: {
    request: { purpose: 'INVOICE_XML', fileName: 'F001-00001234.xml', contentType: 'text/xml', size: 8421 },
    response: {
      key: XML_KEY,
      url: 'https://documentos.proveedores.example.pe/',
      fields: {
        key: XML_KEY,
        'Content-Type': 'text/xml',
        Policy: 'eyJleHBpcmF0aW9uIjoi…',
        'X-Amz-Signature': '3f1c…',
      },
      expiresAt: '2026-01-15T14:08:00.000Z',
      maxBytes: 10485760,
    },
  },
  createInvoiceFromXml: {
    request: { url: XML_KEY },
    response: { ...INVOICE, certStatus: 'PENDING', statusHistory: HISTORY },
  },
  listInvoices: {
    response: { items: [INVOICE], nextCursor: null },
  },
  getInvoice: {
    response: { ...INVOICE, statusHistory: HISTORY, officeLocation: null },
  },
  getInvoiceFile: {
    response: {
      url: 'https://archivos.proveedores.example.pe/F001-00001234.xml?X-Amz-Signature=…',
      expiresAt: '2026-01-15T14:08:00.000Z',
      fileName: 'F001-00001234.xml',
    },
  },
};
