import { randomUUID } from 'node:crypto';
import type { RunningService } from '../services/types.js';
import { startSimulator } from './http.js';

/**
 * SUNAT's comprobante-validation API, enough to exercise the adapter: the OAuth2 client-credentials
 * token endpoint and validarcomprobante. Every document is valid in this skeleton; chosen outcomes
 * (not found, annulled, slow, failing) arrive with the intake issue.
 */
export function startSunatSimulator(port: number, host: string): Promise<RunningService> {
  const tokens = new Set<string>();
  return startSimulator('sunat', port, host, [
    {
      method: 'POST',
      pattern: /^\/v1\/clientesextranet\/([^/]+)\/oauth2\/token\/?$/,
      handle: () => {
        const token = randomUUID();
        tokens.add(token);
        return { status: 200, body: { access_token: token, token_type: 'JWT', expires_in: 3600 } };
      },
    },
    {
      method: 'POST',
      pattern: /^\/v1\/contribuyente\/contribuyentes\/(\d{11})\/validarcomprobante$/,
      handle: ({ headers }) => {
        const token = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
        if (!token || !tokens.has(token)) return { status: 401, body: { msg: 'Token inválido' } };
        return {
          status: 200,
          body: {
            success: true,
            message: 'Operation Success! ',
            data: { estadoCp: '1', estadoRuc: '00', condDomiRuc: '00', observaciones: [] },
          },
        };
      },
    },
  ]);
}
