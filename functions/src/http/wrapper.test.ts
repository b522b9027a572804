import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConflictError, routes } from '@portal/shared';
import type { HttpEvent, HttpResult } from './wrapper.js';

/** The table the wrapper reads the disabled accounts from: a fake answering its GetItem, counting the reads. */
const table = vi.hoisted(() => ({ disabled: new Set<string>(), reads: 0 }));
vi.mock('../adapters/dynamodb.js', () => ({
  tableName: () => 'portal-test',
  documentClient: {
    send: async () => {
      table.reads++;
      return { Item: { userIds: new Set(table.disabled) } };
    },
  },
}));

// The wrapper reads the web origin once, at cold start: set it before loading the module.
process.env.WEB_ORIGIN = 'http://127.0.0.1:4700';
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
const { httpHandler } = await import('./wrapper.js');

const context = {} as Context;
const supplierClaims = { sub: 'u-1', level: 'SUPPLIER', taxId: '20456178325', email: 'p@demo.pe', exp: '1900000000' };

function event(overrides: Partial<HttpEvent> & { claims?: Record<string, string> } = {}): HttpEvent {
  const { claims, ...rest } = overrides;
  return {
    version: '2.0',
    routeKey: 'GET /invoices',
    rawPath: '/invoices',
    rawQueryString: '',
    headers: { 'x-request-id': 'req-12345678', origin: 'http://127.0.0.1:4700' },
    requestContext: {
      requestId: 'apigw-1',
      authorizer: { jwt: { claims: claims ?? supplierClaims, scopes: [] } },
    },
    isBase64Encoded: false,
    ...rest,
  } as unknown as HttpEvent;
}

const listOk = httpHandler(routes.listInvoices, async () => ({ items: [], nextCursor: null }));

describe('the HTTP wrapper', () => {
  it('echoes the caller request id as txId, with security and CORS headers', async () => {
    const result = await listOk(event(), context);
    expect(result.statusCode).toBe(200);
    expect(result.headers?.['x-request-id']).toBe('req-12345678');
    expect(result.headers?.['x-content-type-options']).toBe('nosniff');
    expect(result.headers?.['strict-transport-security']).toContain('max-age');
    expect(result.headers?.['access-control-allow-origin']).toBe('http://127.0.0.1:4700');
  });

  it('does not open CORS to other origins', async () => {
    const result = await listOk(event({ headers: { origin: 'https://evil.example' } }), context);
    expect(result.headers?.['access-control-allow-origin']).toBeUndefined();
  });

  it('answers 401 in the error body when the claims are missing', async () => {
    const result = await listOk(event({ requestContext: { requestId: 'apigw-2' } } as Partial<HttpEvent>), context);
    expect(result.statusCode).toBe(401);
    expect(JSON.parse(result.body!)).toEqual({
      statusCode: 401,
      message: 'No podemos validar tu sesión en este momento.',
      txId: 'req-12345678',
      errors: [{ code: 'ERROR_UNAUTHORIZED', parameters: {} }],
    });
  });

  it('refuses a level the route does not allow with 403', async () => {
    const onlyStaff = httpHandler(routes.listEmployees, async () => ({ items: [] }));
    const result = await onlyStaff(event({ routeKey: 'GET /employees' }), context);
    expect(result.statusCode).toBe(403);
    expect(JSON.parse(result.body!).errors[0].code).toBe('ERROR_FORBIDDEN');
  });

  it('refuses a company-id header outside the taxId list', async () => {
    const result = await listOk(
      event({ headers: { 'x-request-id': 'req-12345678', 'x-company-id': '20100070970' } }),
      context,
    );
    expect(result.statusCode).toBe(403);
    expect(JSON.parse(result.body!).errors[0]).toEqual({
      code: 'ERROR_COMPANY_NOT_ALLOWED',
      parameters: { companyId: '20100070970' },
    });
  });

  it('names the missing required parameter and every invalid one', async () => {
    const dashboard = httpHandler(routes.getDashboard, async () => {
      throw new Error('not reached');
    });
    const result = await dashboard(
      event({
        routeKey: 'GET /dashboard',
        queryStringParameters: { period: '13/2026' },
        claims: { ...supplierClaims, level: 'MANAGER' },
      }),
      context,
    );
    const body = JSON.parse(result.body!);
    expect(result.statusCode).toBe(400);
    expect(body.message).toBe('Falta el parámetro obligatorio «client».');
    expect(body.errors).toEqual([
      { code: 'ERROR_MISSING_PARAMETER', parameters: { parameter: 'client' } },
      { code: 'ERROR_INVALID_PARAMETER', parameters: { parameter: 'period', reason: 'use el formato MM/AAAA' } },
    ]);
  });

  it('tells a value of the wrong kind from a missing one, with the reason in Spanish', async () => {
    const update = httpHandler(routes.updateInvoice, async () => {
      throw new Error('not reached');
    });
    const result = await update(
      event({
        routeKey: 'PUT /suppliers/{supplierId}/invoices/{invoiceType}/{invoiceId}',
        pathParameters: { supplierId: '20100070970', invoiceType: 'FACTURA', invoiceId: 'F001-123' },
        body: JSON.stringify({
          operationType: 'SERVICIOS',
          responsibleId: 42,
          officeId: '',
          purchaseOrders: '4500000001',
          serviceSheets: Array.from({ length: 31 }, (_, index) => `100${index}`),
        }),
        claims: { ...supplierClaims, level: 'MANAGER' },
      }),
      context,
    );
    expect(result.statusCode).toBe(400);
    const reasons = Object.fromEntries(
      JSON.parse(result.body!).errors.map((item: { code: string; parameters: Record<string, string> }) => [
        item.parameters.parameter,
        item.code === 'ERROR_MISSING_PARAMETER' ? 'missing' : item.parameters.reason,
      ]),
    );
    expect(reasons).toEqual({
      operationType: 'debe ser uno de «SERVICES», «GOODS», «GOOD_AND_SERVICE», «TRANSPORT», «WITHOUT_PURCHASE_ORDER»',
      responsibleId: 'debe ser un texto',
      officeId: 'no puede estar vacío',
      locationId: 'missing',
      purchaseOrders: 'debe ser una lista',
      serviceSheets: 'admite como máximo 30 elementos',
    });
  });

  it('refuses a page size out of bounds and an amount with more than two decimals', async () => {
    const list = httpHandler(routes.listInvoices, async () => {
      throw new Error('not reached');
    });
    const listed = await list(
      event({ routeKey: 'GET /invoices', queryStringParameters: { limit: '500' }, claims: supplierClaims }),
      context,
    );
    expect(JSON.parse(listed.body!).errors).toEqual([
      { code: 'ERROR_INVALID_PARAMETER', parameters: { parameter: 'limit', reason: 'debe ser menor o igual que 100' } },
    ]);
    const create = httpHandler(routes.createInvoiceWithoutXml, async () => {
      throw new Error('not reached');
    });
    const created = await create(
      event({
        routeKey: 'POST /invoices/without-xml',
        body: JSON.stringify({ amount: 10.005, taxAmount: -1 }),
        claims: supplierClaims,
      }),
      context,
    );
    const body = JSON.parse(created.body!);
    expect(body.errors).toEqual(
      expect.arrayContaining([
        {
          code: 'ERROR_INVALID_PARAMETER',
          parameters: { parameter: 'amount', reason: 'admite como máximo dos decimales' },
        },
        {
          code: 'ERROR_INVALID_PARAMETER',
          parameters: { parameter: 'taxAmount', reason: 'debe ser mayor o igual que 0' },
        },
        { code: 'ERROR_MISSING_PARAMETER', parameters: { parameter: 'prefixId' } },
      ]),
    );
  });

  it('refuses a body that is not JSON', async () => {
    const create = httpHandler(routes.createInvoiceFromXml, async () => {
      throw new Error('not reached');
    });
    const result = await create(event({ routeKey: 'POST /invoices', body: '{url:' }), context);
    expect(result.statusCode).toBe(400);
    expect(JSON.parse(result.body!).errors[0].code).toBe('ERROR_INVALID_BODY');
  });

  it('maps domain errors to their status and Spanish message', async () => {
    const conflict = httpHandler(routes.listInvoices, async () => {
      throw new ConflictError('ERROR_INVOICE_CHANGED_CONCURRENTLY');
    });
    const result = await conflict(event(), context);
    expect(result.statusCode).toBe(409);
    expect(JSON.parse(result.body!).message).toBe(
      'Otra persona modificó el comprobante mientras lo editaba. Vuelva a cargarlo e inténtelo nuevamente.',
    );
  });

  it('hides the cause of unexpected failures behind a 500 with the txId only', async () => {
    const broken = httpHandler(routes.listInvoices, async () => {
      throw new Error('secret table name portal-prod-table');
    });
    const result = await broken(event(), context);
    expect(result.statusCode).toBe(500);
    expect(result.body).not.toContain('portal-prod');
    expect(JSON.parse(result.body!)).toMatchObject({ statusCode: 500, txId: 'req-12345678', errors: [] });
  });

  it('projects the answer through the response schema, dropping internal attributes', async () => {
    const heartbeat = httpHandler(
      routes.heartbeat,
      async () => ({ status: 'ok' as const, version: '1.0.5', time: 'now', pk: 'SECRET' }) as never,
    );
    const result = await heartbeat(event({ routeKey: 'GET /heartbeat' }), context);
    expect(JSON.parse(result.body!)).toEqual({ status: 'ok', version: '1.0.5', time: 'now' });
  });

  it('generates a txId when the caller sends none', async () => {
    const result = await listOk(event({ headers: {} }), context);
    expect(result.headers?.['x-request-id']).toBe('apigw-1');
  });
});

describe('disabled accounts', () => {
  afterEach(() => {
    table.disabled.clear();
    vi.useRealTimers();
  });

  /** The wrapper loaded afresh (its disabled list and TTL read now), the list route on it, and the reads so far. */
  async function freshList() {
    vi.resetModules();
    const { httpHandler: fresh } = await import('./wrapper.js');
    const list = fresh(routes.listInvoices, async () => ({ items: [], nextCursor: null }));
    return { list, fresh, readsBefore: table.reads };
  }

  it('refuses a disabled account on its very next call, reading the list on every call', async () => {
    const { list, readsBefore } = await freshList();

    expect((await list(event(), context)).statusCode).toBe(200);
    table.disabled.add('u-1');
    const next = await list(event(), context);

    expect(next.statusCode).toBe(403);
    expect(JSON.parse(next.body!)).toEqual({
      statusCode: 403,
      message: 'El usuario está deshabilitado.',
      txId: 'req-12345678',
      errors: [{ code: 'ERROR_USER_DISABLED', parameters: {} }],
    });
    expect(table.reads - readsBefore).toBe(2);
  });

  it('with a TTL a stage chose (60 s), refuses within that TTL, reading the list once per TTL per instance', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.stubEnv('DISABLED_USERS_TTL_SECONDS', '60');
    const { list, readsBefore } = await freshList();

    expect((await list(event(), context)).statusCode).toBe(200);
    table.disabled.add('u-1');
    const withinTheMinute = await list(event(), context);
    vi.setSystemTime(Date.now() + 60_000);
    const afterIt = await list(event(), context);
    vi.unstubAllEnvs();

    expect(withinTheMinute.statusCode).toBe(200);
    expect(afterIt.statusCode).toBe(403);
    expect(table.reads - readsBefore).toBe(2);
  });

  it('checks the Username the token names (cognito:username), and no one on the public routes', async () => {
    table.disabled.add('Corporativo_corp-000103');
    const { list, fresh, readsBefore } = await freshList();
    const health = fresh(routes.healthcheck, async () => ({ status: 'ok' }) as never);

    const staff = await list(
      event({ claims: { ...supplierClaims, sub: 'other-sub', 'cognito:username': 'Corporativo_corp-000103' } }),
      context,
    );
    const publicCall = await health(event({ routeKey: 'GET /healthcheck', requestContext: {} } as never), context);

    expect(JSON.parse(staff.body!).errors[0].code).toBe('ERROR_USER_DISABLED');
    expect(publicCall.statusCode).not.toBe(403);
    expect(table.reads - readsBefore).toBe(1);
  });
});

describe('the origin-verify guard', () => {
  const TOKEN = 'cf-origin-0123456789abcdef';
  const DIRECT_ACCESS_BODY = {
    statusCode: 403,
    message: 'Acceso no permitido: use la dirección del portal.',
    txId: 'req-12345678',
    errors: [{ code: 'ERROR_DIRECT_ACCESS_FORBIDDEN', parameters: {} }],
  };

  /** The wrapper reads the token once, at cold start: each case loads a fresh module with its environment. */
  async function coldStart(token: string | undefined) {
    vi.resetModules();
    if (token === undefined) delete process.env.ORIGIN_VERIFY_TOKEN;
    else process.env.ORIGIN_VERIFY_TOKEN = token;
    const { httpHandler: fresh } = await import('./wrapper.js');
    const served = vi.fn(async () => ({ items: [], nextCursor: null }));
    return { list: fresh(routes.listInvoices, served), fresh, served };
  }

  /** The JSON lines the function prints while `run` runs (the logger writes to stdout or stderr). */
  async function printed(run: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
    const lines: string[] = [];
    const capture = (chunk: unknown) => {
      lines.push(String(chunk));
      return true;
    };
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
    try {
      await run();
    } finally {
      stdout.mockRestore();
      stderr.mockRestore();
    }
    return lines
      .flatMap((chunk) => chunk.split('\n'))
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  const withOriginHeader = (value: string) =>
    event({ headers: { 'x-request-id': 'req-12345678', 'x-origin-verify': value } });

  afterEach(() => {
    delete process.env.ORIGIN_VERIFY_TOKEN;
    vi.restoreAllMocks();
  });

  it('refuses a request without the header with 403 in the error body, and logs the source IP', async () => {
    const { list, served } = await coldStart(TOKEN);
    // This file's functions log nothing (POWERTOOLS_LOG_LEVEL above); this case reads the warning.
    (await import('../observability/logger.js')).logger.setLogLevel('WARN');

    let result!: HttpResult;
    const lines = await printed(async () => {
      result = await list(
        event({ requestContext: { requestId: 'apigw-9', http: { sourceIp: '203.0.113.7' } } } as Partial<HttpEvent>),
        context,
      );
    });

    expect(result.statusCode).toBe(403);
    expect(JSON.parse(result.body!)).toEqual(DIRECT_ACCESS_BODY);
    expect(result.headers?.['x-content-type-options']).toBe('nosniff');
    expect(served).not.toHaveBeenCalled();
    const warning = lines.find((line) => line.level === 'WARN');
    expect(warning).toMatchObject({
      message: expect.stringContaining('origin-verify'),
      sourceIp: '203.0.113.7',
      txId: JSON.parse(result.body!).txId,
      routeKey: 'GET /invoices',
    });
  });

  it.each([
    ['another value of the same length', TOKEN.replace(/.$/, 'X')],
    ['a prefix of the token', TOKEN.slice(0, 10)],
    ['an empty value', ''],
  ])('refuses a request whose header carries %s', async (_, value) => {
    const { list, served } = await coldStart(TOKEN);

    const result = await list(withOriginHeader(value), context);

    expect(result.statusCode).toBe(403);
    expect(JSON.parse(result.body!)).toEqual(DIRECT_ACCESS_BODY);
    expect(served).not.toHaveBeenCalled();
  });

  it('serves a request that carries the token', async () => {
    const { list, served } = await coldStart(TOKEN);

    const result = await list(withOriginHeader(TOKEN), context);

    expect(result.statusCode).toBe(200);
    expect(served).toHaveBeenCalledOnce();
  });

  it('guards the public routes too', async () => {
    const { fresh } = await coldStart(TOKEN);
    const heartbeat = fresh(routes.heartbeat, async () => ({ status: 'ok' as const, version: '1.0.5', time: 'now' }));

    const direct = await heartbeat(
      event({ routeKey: 'GET /heartbeat', requestContext: {} } as Partial<HttpEvent>),
      context,
    );
    const viaCloudFront = await heartbeat(
      event({ routeKey: 'GET /heartbeat', headers: { 'x-origin-verify': TOKEN } }),
      context,
    );

    expect(direct.statusCode).toBe(403);
    expect(viaCloudFront.statusCode).toBe(200);
  });

  it.each([
    ['unset', undefined],
    ['empty', ''],
  ])('serves any request when the token is %s (local stage, tests)', async (_, token) => {
    const { list, served } = await coldStart(token);

    const result = await list(event(), context);

    expect(result.statusCode).toBe(200);
    expect(served).toHaveBeenCalledOnce();
  });
});
