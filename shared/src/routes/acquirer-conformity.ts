import { RegisterAcquirerConformityBody } from '../schemas/acquirer-conformity.js';
import { InvoiceDetail } from '../schemas/invoices.js';
import { route, STAFF, type RouteDef } from './route.js';
import { invoiceRequest } from './invoice-request.js';
import { INVOICE_API_PATH } from '../invoice-ref.js';

/** The Ley 29623 conformity clock (docs/ap-conformity.md): staff register what they answered on SUNAT's platform. */
export const acquirerConformityRoutes = {
  registerAcquirerConformity: route({
    id: 'registerAcquirerConformity',
    method: 'POST',
    path: `${INVOICE_API_PATH}/acquirer-conformity`,
    summary:
      'Registra la conformidad o disconformidad que la sociedad expresó en la Plataforma de Confirmación de SUNAT (Ley 29623)',
    roles: STAFF,
    request: invoiceRequest({ body: RegisterAcquirerConformityBody }),
    response: InvoiceDetail,
    uses: { table: 'write', queues: ['notifications'] },
    handler: 'invoices/register-acquirer-conformity',
  }),
} as const satisfies Record<string, RouteDef>;
