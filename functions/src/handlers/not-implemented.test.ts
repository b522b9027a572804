import { describe, expect, it, vi } from 'vitest';
import type { HttpEvent } from '../http/wrapper.js';

// The wrapper checks every signed-in caller against the list of disabled accounts: here, an empty one.
vi.mock('../adapters/dynamodb.js', () => ({
  tableName: () => 'portal-test',
  documentClient: { send: async () => ({}) },
}));

process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
const { handler } = await import('./not-implemented.js');

describe('the handler of routes whose issue has not landed', () => {
  it('authorizes like the real route, then answers 501 in the error body', async () => {
    const event = {
      version: '2.0',
      routeKey: 'GET /invoices',
      rawPath: '/invoices',
      headers: { 'x-request-id': 'req-501-0001' },
      requestContext: {
        requestId: 'apigw-1',
        authorizer: { jwt: { claims: { sub: 'u-1', level: 'SUPPLIER', taxId: '20456178325' }, scopes: [] } },
      },
      isBase64Encoded: false,
    } as unknown as HttpEvent;

    const result = await handler(event, {} as never);

    expect(result.statusCode).toBe(501);
    expect(JSON.parse(result.body!)).toEqual({
      statusCode: 501,
      message: 'Esta funcionalidad aún no está disponible.',
      txId: 'req-501-0001',
      errors: [{ code: 'ERROR_NOT_IMPLEMENTED', parameters: {} }],
    });
  });

  it('refuses a level the route does not allow before anything else', async () => {
    const event = {
      version: '2.0',
      routeKey: 'GET /dashboard',
      rawPath: '/dashboard',
      headers: {},
      requestContext: {
        requestId: 'apigw-2',
        authorizer: { jwt: { claims: { sub: 'u-1', level: 'SUPPLIER', taxId: '20456178325' }, scopes: [] } },
      },
      isBase64Encoded: false,
    } as unknown as HttpEvent;

    const result = await handler(event, {} as never);

    expect(result.statusCode).toBe(403);
  });
});
