import { randomUUID } from 'node:crypto';
import type { RunningService } from '../services/types.js';
import { startSimulator } from './http.js';

const SERVICE = '/sap/opu/odata/sap/API_SUPPLIERINVOICE_PROCESS_SRV';

/**
 * S/4HANA's supplier-invoice OData API, enough to exercise the adapter: the CSRF token handshake and
 * the A_SupplierInvoice deep insert, which answers a document number. The three-way match, the
 * conformity documents and payment runs arrive with the intake issue.
 */
export function startSapSimulator(port: number, host: string): Promise<RunningService> {
  const csrfTokens = new Set<string>();
  let documentNumber = 5105600000;
  return startSimulator('sap', port, host, [
    {
      method: 'GET',
      pattern: new RegExp(`^${SERVICE}/?$`),
      handle: ({ headers }) => {
        if (headers['x-csrf-token']?.toString().toLowerCase() !== 'fetch')
          return { status: 200, body: { d: { EntitySets: ['A_SupplierInvoice'] } } };
        const token = randomUUID();
        csrfTokens.add(token);
        return { status: 200, body: { d: { EntitySets: ['A_SupplierInvoice'] } }, headers: { 'x-csrf-token': token } };
      },
    },
    {
      method: 'POST',
      pattern: new RegExp(`^${SERVICE}/A_SupplierInvoice$`),
      handle: ({ headers, body }) => {
        const token = headers['x-csrf-token']?.toString();
        if (!token || !csrfTokens.has(token))
          return {
            status: 403,
            body: { error: { message: { value: 'CSRF token validation failed' } } },
            headers: { 'x-csrf-token': 'Required' },
          };
        let payload: Record<string, unknown>;
        try {
          payload = JSON.parse(body) as Record<string, unknown>;
        } catch {
          return { status: 400, body: { error: { message: { value: 'Malformed JSON' } } } };
        }
        documentNumber += 1;
        return {
          status: 201,
          body: {
            d: { ...payload, SupplierInvoice: String(documentNumber), FiscalYear: new Date().getFullYear().toString() },
          },
        };
      },
    },
  ]);
}
