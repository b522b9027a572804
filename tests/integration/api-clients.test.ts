import createClient from 'openapi-fetch';
import { describe, expect, it } from 'vitest';
import { API_CLIENT_RATE_DEFAULT, HEADERS, routes, withCheckDigit, type CreatedApiClient } from '@portal/shared';
import { SUPPLIERS, tenantFixture } from '../support/tenant.js';
import { call, idTokenOf } from '../support/api.js';
import { randomCorrelative } from '../support/invoices.js';
import { demoUser, stage } from '../support/stage.js';
import type { paths } from '../support/portal-api.js';
import { until } from '../support/until.js';

/**
 * A supplier's system on the API (docs/integrators.md): an administrator creates an API client for a supplier;
 * the client gets a token with the client-credentials grant from the local Cognito front, uploads an XML through
 * the presigned flow, submits it and follows it to 'Válido', all through a client generated from docs/openapi.json.
 * It acts for its own RUC only, is held to its calls per minute, and stops working once revoked.
 */
const SUPPLIER = SUPPLIERS[0]!;
const OTHER_SUPPLIER = SUPPLIERS[1]!;
const XML = tenantFixture('ubl/factura-ubl21-credito.xml');
/** The local stage's limit (local/runtime/environment.ts); AWS has API_CLIENT_RATE_DEFAULT. */
const LOCAL_RATE_LIMIT = Number(process.env.API_CLIENT_RATE_LIMIT ?? 60);

async function adminToken(): Promise<string> {
  const admin = demoUser('ADMIN');
  return idTokenOf(admin.username, admin.password);
}

async function createApiClient(
  name: string,
  scopes: ('invoices.submit' | 'invoices.read')[] = ['invoices.submit', 'invoices.read'],
): Promise<CreatedApiClient> {
  const created = await call<CreatedApiClient>(routes.createApiClient, {
    token: await adminToken(),
    body: { taxId: SUPPLIER.taxId, name, scopes },
  });
  expect(created.status).toBe(201);
  return created.body;
}

/** RFC 6749 §4.4 with client_secret_basic (the default) or client_secret_post. */
async function requestToken(
  client: { clientId: string; clientSecret: string; tokenUrl: string },
  how: 'basic' | 'post' = 'basic',
): Promise<{ status: number; body: Record<string, unknown> }> {
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (how === 'basic') {
    const pair = `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
  } else {
    form.set('client_id', client.clientId);
    form.set('client_secret', client.clientSecret);
  }
  const response = await fetch(client.tokenUrl, { method: 'POST', headers, body: form });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function tokenOf(client: CreatedApiClient): Promise<string> {
  const answer = await requestToken(client);
  expect(answer.status).toBe(200);
  return String(answer.body.access_token);
}

/** The generated client, as a supplier's developer would use it (docs/integrators.md). */
function portalApi(token: string, clientId: string) {
  return createClient<paths>({
    baseUrl: stage().apiUrl,
    headers: { authorization: `Bearer ${token}`, [HEADERS.apiClient]: clientId },
  });
}

/**
 * Each ask of a wait is a call of the client, held to LOCAL_RATE_LIMIT calls a minute: one a second stays within.
 * A wait gives up well inside the test's 30 s, so that its failure names what it waited for.
 */
const ASKING = { interval: 1_000, timeout: 20_000 } as const;

/** Uploads a document through the presigned POST the API hands out, as integrators.md tells. */
async function uploadXml(api: ReturnType<typeof portalApi>, xml: string, fileName: string): Promise<string> {
  const bytes = Buffer.from(xml);
  const ticket = await api.POST('/uploads', {
    body: { purpose: 'INVOICE_XML', fileName, contentType: 'application/xml', size: bytes.length },
  });
  expect(ticket.response.status).toBe(201);
  const form = new FormData();
  for (const [name, value] of Object.entries(ticket.data!.fields)) form.append(name, value);
  form.append('file', new Blob([bytes], { type: 'application/xml' }), fileName);
  const stored = await fetch(ticket.data!.url, { method: 'POST', body: form });
  await stored.arrayBuffer();
  expect(stored.status).toBeLessThan(300);
  return ticket.data!.key;
}

describe('a supplier’s API client', () => {
  it('submits an invoice for its RUC and follows it to Válido, and is refused for another RUC', async () => {
    const client = await createApiClient('ERP de prueba');
    expect(client).toMatchObject({ taxId: SUPPLIER.taxId, supplierName: SUPPLIER.name, revokedAt: null });
    expect(client.clientSecret.length).toBeGreaterThan(20);
    // The list never shows the secret again.
    const listed = await call(routes.listApiClients, { token: await adminToken() });
    const row = listed.body.items.find((item: { clientId: string }) => item.clientId === client.clientId);
    expect(row).toMatchObject({ name: 'ERP de prueba', scopes: ['invoices.submit', 'invoices.read'] });
    expect(JSON.stringify(listed.body)).not.toContain(client.clientSecret);

    // client_secret_post works too.
    expect((await requestToken(client, 'post')).status).toBe(200);
    const api = portalApi(await tokenOf(client), client.clientId);

    const number = randomCorrelative();
    const xml = XML.replaceAll('F001-00000458', `F001-${number}`);
    const key = await uploadXml(api, xml, `F001-${number}.xml`);
    const submitted = await api.POST('/invoices', { body: { url: key } });
    expect(submitted.response.status).toBe(201);
    expect(submitted.data).toMatchObject({ id: `F001-${number}`, supplierId: SUPPLIER.taxId, certStatus: 'PENDING' });

    const invoicePath = { supplierId: SUPPLIER.taxId, invoiceType: 'FACTURA' as const, invoiceId: `F001-${number}` };
    // SUNAT's verdict, whichever it is: a wrong one fails here and says so, not at the test's timeout.
    const checked = await until(
      async () => {
        const found = await api.GET('/suppliers/{supplierId}/invoices/{invoiceType}/{invoiceId}', {
          params: { path: invoicePath },
        });
        expect(found.response.status).toBe(200);
        return found.data!.certStatus === 'PENDING' ? null : found.data;
      },
      { message: 'SUNAT’s validation', ...ASKING },
    );
    expect(checked).toMatchObject({ certStatus: 'VALID' });
    expect(checked.statusHistory.length).toBeGreaterThan(0);
    const listedInvoices = await api.GET('/invoices', { params: { query: { limit: 50 } } });
    expect(listedInvoices.data!.items.map((invoice) => invoice.id)).toContain(`F001-${number}`);

    // The audit trail says it came through an API client.
    const history = await call(routes.listInvoiceHistory, {
      token: await adminToken(),
      path: invoicePath,
    });
    expect(JSON.stringify(history.body)).toContain('"signIn":"API"');

    // Another supplier's XML, another company header, another supplier's invoice: refused.
    const foreignNumber = randomCorrelative();
    const foreignXml = XML.replaceAll('F001-00000458', `F001-${foreignNumber}`).replaceAll(
      SUPPLIER.taxId,
      OTHER_SUPPLIER.taxId,
    );
    const foreignKey = await uploadXml(api, foreignXml, `F001-${foreignNumber}.xml`);
    const foreign = await api.POST('/invoices', { body: { url: foreignKey } });
    expect(foreign.response.status).toBe(403);
    expect(foreign.error).toMatchObject({ statusCode: 403, errors: [{ code: 'ERROR_INVOICE_SUPPLIER_NOT_CALLER' }] });

    const otherCompany = await api.GET('/invoices', {
      params: { header: { [HEADERS.companyId]: OTHER_SUPPLIER.taxId }, query: {} },
    });
    expect(otherCompany.response.status).toBe(403);
    expect(otherCompany.error).toMatchObject({ errors: [{ code: 'ERROR_COMPANY_NOT_ALLOWED' }] });

    const otherInvoice = await api.GET('/suppliers/{supplierId}/invoices/{invoiceType}/{invoiceId}', {
      params: { path: { ...invoicePath, supplierId: OTHER_SUPPLIER.taxId } },
    });
    expect([403, 404]).toContain(otherInvoice.response.status);
  });

  it('is refused every route the manifest does not open to it, and a scope it was not given', async () => {
    const client = await createApiClient('Solo lectura', ['invoices.read']);
    const token = await tokenOf(client);
    const machine = { token, headers: { [HEADERS.apiClient]: client.clientId } };
    const notifications = await call(routes.listNotifications, machine);
    expect(notifications.status).toBe(403);
    expect(notifications.body.errors[0].code).toBe('ERROR_API_CLIENT_ROUTE_NOT_ALLOWED');
    const admin = await call(routes.listApiClients, machine);
    expect(admin.body.errors[0].code).toBe('ERROR_API_CLIENT_ROUTE_NOT_ALLOWED');
    const upload = await portalApi(token, client.clientId).POST('/uploads', {
      body: { purpose: 'INVOICE_XML', fileName: 'a.xml', contentType: 'application/xml', size: 10 },
    });
    expect(upload.response.status).toBe(403);
    expect(upload.error).toMatchObject({
      errors: [{ code: 'ERROR_API_CLIENT_SCOPE_MISSING', parameters: { scope: 'invoices.submit' } }],
    });
  });

  it('needs its x-api-client header, and a person’s token may not carry one', async () => {
    const client = await createApiClient('Cabecera');
    const token = await tokenOf(client);
    const without = await call(routes.listInvoices, { token });
    expect(without.status).toBe(403);
    expect(without.body.errors[0].code).toBe('ERROR_API_CLIENT_HEADER');
    const supplier = demoUser('SUPPLIER');
    const person = await call(routes.listInvoices, {
      token: await idTokenOf(supplier.username, supplier.password),
      headers: { [HEADERS.apiClient]: client.clientId },
    });
    expect(person.status).toBe(403);
    expect(person.body.errors[0].code).toBe('ERROR_API_CLIENT_HEADER');
  });

  it('answers invalid_client to a wrong secret and an unknown client', async () => {
    const client = await createApiClient('Secreto equivocado');
    const wrong = await requestToken({ ...client, clientSecret: `${client.clientSecret}x` });
    expect(wrong).toEqual({ status: 401, body: expect.objectContaining({ error: 'invalid_client' }) });
    const unknown = await requestToken({ ...client, clientId: 'nohayclienteasi' }, 'post');
    expect(unknown).toEqual({ status: 401, body: expect.objectContaining({ error: 'invalid_client' }) });
  });

  it('stops working once revoked: no new token, and the one it had is refused', async () => {
    const client = await createApiClient('Para revocar');
    const token = await tokenOf(client);
    const api = portalApi(token, client.clientId);
    expect((await api.GET('/invoices', { params: { query: {} } })).response.status).toBe(200);

    const revoked = await call(routes.revokeApiClient, {
      token: await adminToken(),
      path: { clientId: client.clientId },
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).not.toBeNull();
    const again = await call(routes.revokeApiClient, {
      token: await adminToken(),
      path: { clientId: client.clientId },
    });
    expect(again.status).toBe(409);
    expect(again.body.errors[0].code).toBe('ERROR_API_CLIENT_ALREADY_REVOKED');

    expect(await requestToken(client)).toEqual({
      status: 401,
      body: expect.objectContaining({ error: 'invalid_client' }),
    });
    // Its very next call is refused: by the wrapper, which reads the refused accounts on every call (TTL 0), or by
    // the gateway once the authorizer's audience dropped it; both answer 401.
    const next = await api.GET('/invoices', { params: { query: {} } });
    expect(next.response.status).toBe(401);
    const body = next.error as { errors?: { code: string }[]; message?: string };
    expect([body.errors?.[0]?.code, body.message]).toEqual(
      expect.arrayContaining([expect.stringMatching(/^(ERROR_API_CLIENT_REVOKED|Unauthorized)$/)]),
    );

    const audit = await call(routes.listAuditEvents, { token: await adminToken(), query: { limit: 50 } });
    const actions = audit.body.items
      .filter((event: { target: { userId: string } }) => event.target.userId === client.clientId)
      .map((event: { action: string }) => event.action);
    expect(actions).toEqual(['API_CLIENT_REVOKED', 'API_CLIENT_CREATED']);
  });

  it('is held to its calls per minute: 429 with a Spanish message and Retry-After', async () => {
    expect(LOCAL_RATE_LIMIT).toBeLessThan(API_CLIENT_RATE_DEFAULT);
    const client = await createApiClient('Muy insistente', ['invoices.read']);
    const api = portalApi(await tokenOf(client), client.clientId);
    let limited: { response: Response; error?: unknown } | null = null;
    // Two windows' worth at most: a burst that straddles a minute's turn still meets the limit in the second.
    for (let i = 0; i < 2 * LOCAL_RATE_LIMIT + 2 && !limited; i++) {
      const answer = await api.GET('/invoices', { params: { query: { limit: 1 } } });
      if (answer.response.status === 429) limited = answer;
      else expect(answer.response.status).toBe(200);
    }
    expect(limited).not.toBeNull();
    const retryAfter = Number(limited!.response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited!.error).toMatchObject({
      statusCode: 429,
      message: `El cliente de API superó las ${LOCAL_RATE_LIMIT} solicitudes por minuto permitidas. Vuelva a intentarlo en ${retryAfter} segundos.`,
      errors: [{ code: 'ERROR_API_CLIENT_RATE_LIMITED' }],
    });
  });

  it('refuses an administrator’s request for a RUC the portal does not know', async () => {
    const created = await call(routes.createApiClient, {
      token: await adminToken(),
      body: { taxId: withCheckDigit('2099999999'), name: 'Nadie', scopes: ['invoices.read'] },
    });
    expect(created.status).toBe(404);
    expect(created.body.errors[0].code).toBe('ERROR_API_CLIENT_UNKNOWN_SUPPLIER');
  });
});
