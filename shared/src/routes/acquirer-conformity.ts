import { RegisterAcquirerConformityBody } from '../schemas/acquirer-conformity.js';
import { InvoiceDetail, InvoiceKeyPath } from '../schemas/invoices.js';
import { route, STAFF, INVOICE_ID_CODES, type RouteDef } from './route.js';
import { INVOICE_API_PATH } from '../invoice-ref.js';

/** The Ley 29623 conformity clock (docs/ap-conformity.md): staff register what they answered on SUNAT's platform. */
export const acquirerConformityRoutes = {
  registerAcquirerConformity: route({
    id: 'registerAcquirerConformity',
    method: 'POST',
    path: `${INVOICE_API_PATH}/acquirer-conformity`,
    summary:
      'Registra la conformidad o disconformidad que la sociedad expresó en la Plataforma de Confirmación de SUNAT (Ley 29623)',
    auth: 'jwt',
    roles: STAFF,
    request: {
      path: InvoiceKeyPath,
      body: RegisterAcquirerConformityBody,
      parameterCodes: INVOICE_ID_CODES,
    },
    response: InvoiceDetail,
    uses: { table: 'write', queues: ['notifications'] },
    handler: 'invoices/register-acquirer-conformity',
  }),
} as const satisfies Record<string, RouteDef>;
