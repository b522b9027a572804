import { describe, expect, it } from 'vitest';
import { LEVELS, ROUTES, routes } from '@portal/shared';
import { call, idTokenOf } from '../support/api.js';
import { stage } from '../support/stage.js';

/**
 * Enumerates the manifest: every jwt route refuses every signed-in level it does not declare with 403
 * in the error body, and lets every declared level past the authorization step. A route added later
 * is covered without touching this file.
 */
const jwtRoutes = ROUTES.filter((def) => def.auth === 'jwt');
const accounts = stage().demoUsers.filter((user) => user.taxId !== null || user.role === 'ADMIN');

function samplePath(): Record<string, string> {
  return {
    supplierId: '20456178325',
    invoiceType: 'FACTURA',
    invoiceId: 'F001-1',
    id: '4500012000',
    userId: 'someone',
  };
}

describe.each(jwtRoutes.map((def) => [`${def.method} ${def.path}`, def] as const))('%s', (_, def) => {
  it.each(accounts.map((user) => [user.role, user] as const))('as %s', async (role, user) => {
    const token = await idTokenOf(user.username, user.password);
    const response = await call(def, { token, path: samplePath() });
    expect(response.body.txId ?? response.headers.get('x-request-id')).toBe(response.requestId);
    if (def.roles.includes(role)) {
      expect(response.status).not.toBe(401);
      expect(response.status).not.toBe(403);
    } else {
      expect(response.status).toBe(403);
      expect(response.body.errors[0].code).toBe('ERROR_FORBIDDEN');
    }
  });
});

describe('routes whose issue has not landed', () => {
  it('answer 501 in the error body shape once authorized', async () => {
    const admin = stage().demoUsers.find((user) => user.role === 'ADMIN')!;
    const response = await call(routes.listInternalUsers, { token: await idTokenOf(admin.username, admin.password) });
    expect(response.status).toBe(501);
    expect(response.body).toEqual({
      statusCode: 501,
      message: 'Esta funcionalidad aún no está disponible.',
      txId: response.requestId,
      errors: [{ code: 'ERROR_NOT_IMPLEMENTED', parameters: {} }],
    });
  });

  it('cover every level of the manifest', () => {
    expect(new Set(jwtRoutes.flatMap((def) => def.roles))).toEqual(new Set(LEVELS));
  });
});
