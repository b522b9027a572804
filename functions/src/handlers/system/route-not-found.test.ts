import { describe, expect, it } from 'vitest';
import { API_SECURITY_HEADERS } from '@portal/shared';
import type { HttpEvent } from '../../http/wrapper.js';

process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
const { handler } = await import('./route-not-found.js');

function defaultRouteEvent(method: string, rawPath: string, stage: string, extra: Partial<HttpEvent> = {}) {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString: '',
    headers: { 'x-request-id': 'req-404-0001', 'content-type': 'application/json' },
    requestContext: { requestId: 'apigw-404', stage, http: { method, path: rawPath } },
    isBase64Encoded: false,
    ...extra,
  } as unknown as HttpEvent;
}

describe("the $default route's function", () => {
  it('answers an unknown route 404 ERROR_ROUTE_NOT_FOUND in the error body, with the security headers', async () => {
    const result = await handler(defaultRouteEvent('PATCH', '/api/invoices/F001-1', 'api'), {} as never);

    expect(result.statusCode).toBe(404);
    expect(JSON.parse(result.body!)).toEqual({
      statusCode: 404,
      message: 'La dirección solicitada no existe en el API del portal.',
      txId: 'req-404-0001',
      // The path as the routes name it, without the stage API Gateway puts in front.
      errors: [{ code: 'ERROR_ROUTE_NOT_FOUND', parameters: { method: 'PATCH', path: '/invoices/F001-1' } }],
    });
    expect(result.headers).toEqual({ ...API_SECURITY_HEADERS, 'x-request-id': 'req-404-0001' });
  });

  it('answers 404 before reading a body it could not parse', async () => {
    const event = defaultRouteEvent('POST', '/nowhere', '$default', { body: '{not json' });
    const result = await handler(event, {} as never);

    expect(result.statusCode).toBe(404);
    expect(JSON.parse(result.body!).errors).toEqual([
      { code: 'ERROR_ROUTE_NOT_FOUND', parameters: { method: 'POST', path: '/nowhere' } },
    ]);
  });
});
