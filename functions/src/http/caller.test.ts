import { describe, expect, it } from 'vitest';
import { PortalError, routes } from '@portal/shared';
import { resolveCaller } from './caller.js';

/** An access token of the client-credentials grant, as API Gateway hands over its claims. */
const machine = {
  sub: 'client123',
  client_id: 'client123',
  token_use: 'access',
  scope: 'portal/invoices.submit portal/invoices.read',
  level: 'SUPPLIER',
  taxId: '20456178325',
  signIn: 'API',
  exp: '1900000000',
};
const person = { sub: 'u-1', 'cognito:username': 'u-1', level: 'SUPPLIER', taxId: '20456178325', exp: '1900000000' };

function refusal(run: () => unknown): { status: number; code: string } | null {
  try {
    run();
    return null;
  } catch (error) {
    if (!(error instanceof PortalError)) throw error;
    return { status: error.statusCode, code: error.code };
  }
}

describe('a machine caller (an API client’s token)', () => {
  it('acts as its one supplier, signed in through the API, on a route open to its scope', () => {
    const caller = resolveCaller(routes.createInvoiceFromXml, machine, undefined, 'tx', 'client123');
    expect(caller).toMatchObject({
      level: 'SUPPLIER',
      taxIds: ['20456178325'],
      activeCompany: '20456178325',
      username: 'client123',
      signIn: 'API',
      machine: { clientId: 'client123', scopes: ['invoices.submit', 'invoices.read'] },
    });
  });

  it('is refused a route the manifest does not open to machines, and one its scopes do not cover', () => {
    expect(refusal(() => resolveCaller(routes.listNotifications, machine, undefined, 'tx', 'client123'))).toEqual({
      status: 403,
      code: 'ERROR_API_CLIENT_ROUTE_NOT_ALLOWED',
    });
    const readOnly = { ...machine, scope: 'portal/invoices.read' };
    expect(refusal(() => resolveCaller(routes.createUpload, readOnly, undefined, 'tx', 'client123'))).toEqual({
      status: 403,
      code: 'ERROR_API_CLIENT_SCOPE_MISSING',
    });
    // A scope of another resource server with the same name does not count.
    const foreign = { ...machine, scope: 'other/invoices.read' };
    expect(refusal(() => resolveCaller(routes.listInvoices, foreign, undefined, 'tx', 'client123'))?.code).toBe(
      'ERROR_API_CLIENT_SCOPE_MISSING',
    );
  });

  it('is refused another company, and any level or RUC list the trigger did not give a client', () => {
    expect(refusal(() => resolveCaller(routes.listInvoices, machine, '20100070970', 'tx', 'client123'))).toEqual({
      status: 403,
      code: 'ERROR_COMPANY_NOT_ALLOWED',
    });
    const admin = { ...machine, level: 'ADMIN' };
    expect(refusal(() => resolveCaller(routes.listInvoices, admin, undefined, 'tx', 'client123'))?.code).toBe(
      'ERROR_FORBIDDEN',
    );
    const twoRucs = { ...machine, taxId: '20456178325,20100070970' };
    expect(refusal(() => resolveCaller(routes.listInvoices, twoRucs, undefined, 'tx', 'client123'))?.code).toBe(
      'ERROR_FORBIDDEN',
    );
  });

  it('needs the x-api-client header naming its own client, which a person may not send', () => {
    expect(refusal(() => resolveCaller(routes.listInvoices, machine, undefined, 'tx'))?.code).toBe(
      'ERROR_API_CLIENT_HEADER',
    );
    expect(refusal(() => resolveCaller(routes.listInvoices, machine, undefined, 'tx', 'other'))?.code).toBe(
      'ERROR_API_CLIENT_HEADER',
    );
    expect(refusal(() => resolveCaller(routes.listInvoices, person, undefined, 'tx', 'client123'))?.code).toBe(
      'ERROR_API_CLIENT_HEADER',
    );
  });

  it('leaves a person’s tokens as they were: an ID token, or a user’s access token, is no machine', () => {
    expect(resolveCaller(routes.listNotifications, person, undefined, 'tx')).toMatchObject({
      machine: null,
      signIn: 'PASSWORD',
    });
    const userAccess = { ...person, token_use: 'access', client_id: 'web', scope: 'openid', username: 'u-1' };
    expect(resolveCaller(routes.listNotifications, userAccess, undefined, 'tx').machine).toBeNull();
  });
});
