import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { describe, expect, it } from 'vitest';
import {
  SunatUnavailableError,
  credentialsFromEnv,
  makeSunatClient,
  type SunatClientOptions,
  type SunatDocument,
} from './sunat.js';

const COMPANY = '20100070970';
const OTHER_COMPANY = '20603415800';
const DOCUMENT: SunatDocument = {
  issuerRuc: '20456178320',
  type: 'FACTURA',
  series: 'F001',
  number: '00001234',
  issuedAt: '2026-10-05',
  amount: 1180.4,
};

interface Sent {
  url: string;
  init: RequestInit;
}

type Reply = { status: number; body?: unknown } | 'hang' | 'network-error';

/**
 * A fake SUNAT behind `fetch`: tokens always granted (expires_in 3600), validations answered from
 * `replies` in order (the last one repeats).
 */
function fakeSunat(replies: Reply[], options: { tokenReplies?: Reply[] } = {}) {
  const sent: Sent[] = [];
  let validations = 0;
  let tokenCalls = 0;
  const fetchFake = (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = String(input);
    sent.push({ url, init });
    const isToken = url.includes('/oauth2/token/');
    const reply: Reply = isToken
      ? (options.tokenReplies?.[Math.min(tokenCalls++, options.tokenReplies.length - 1)] ?? {
          status: 200,
          body: { access_token: `token-${sent.length}`, token_type: 'JWT', expires_in: 3600 },
        })
      : replies[Math.min(validations++, replies.length - 1)]!;
    if (reply === 'network-error') throw new TypeError('fetch failed');
    if (reply === 'hang') {
      return new Promise<Response>((_, reject) =>
        init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      );
    }
    return new Response(reply.body === undefined ? '' : JSON.stringify(reply.body), { status: reply.status });
  }) as typeof fetch;
  return {
    fetch: fetchFake,
    sent,
    tokenRequests: () => sent.filter((call) => call.url.includes('/oauth2/token/')),
    validations: () => sent.filter((call) => call.url.endsWith('/validarcomprobante')),
  };
}

function answer(estadoCp: string, extra: Record<string, unknown> = {}): Reply {
  return {
    status: 200,
    body: {
      success: true,
      message: 'Operation Success! ',
      data: { estadoCp, estadoRuc: '00', condDomiRuc: '00', observaciones: [], ...extra },
    },
  };
}

function client(fake: ReturnType<typeof fakeSunat>, overrides: Partial<SunatClientOptions> = {}) {
  const sleeps: number[] = [];
  const sunat = makeSunatClient({
    tokenUrl: 'https://seguridad.test/',
    apiUrl: 'https://api.test',
    credentials: async (ruc) =>
      ruc === COMPANY || ruc === OTHER_COMPANY ? { clientId: `id-${ruc}`, clientSecret: `secret-${ruc}` } : null,
    fetch: fake.fetch,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    ...overrides,
  });
  return { sunat, sleeps };
}

describe('SUNAT adapter: the request', () => {
  it('asks for a client-credentials token and sends the document as validarcomprobante expects', async () => {
    // Prepare
    const fake = fakeSunat([answer('1')]);
    const { sunat } = client(fake);

    // Act
    await sunat.validate(COMPANY, DOCUMENT);

    // Assess
    const [token, validation] = fake.sent;
    expect(token!.url).toBe(`https://seguridad.test/v1/clientesextranet/id-${COMPANY}/oauth2/token/`);
    expect(Object.fromEntries(new URLSearchParams(String(token!.init.body)))).toEqual({
      grant_type: 'client_credentials',
      scope: 'https://api.sunat.gob.pe/v1/contribuyente/contribuyentes',
      client_id: `id-${COMPANY}`,
      client_secret: `secret-${COMPANY}`,
    });
    expect(validation!.url).toBe(`https://api.test/v1/contribuyente/contribuyentes/${COMPANY}/validarcomprobante`);
    expect(new Headers(validation!.init.headers).get('authorization')).toBe('Bearer token-1');
    expect(JSON.parse(String(validation!.init.body))).toEqual({
      numRuc: '20456178320',
      codComp: '01',
      numeroSerie: 'F001',
      numero: '1234',
      fechaEmision: '05/10/2026',
      monto: '1180.40',
    });
  });

  it('sends the SUNAT code of each document type', async () => {
    const fake = fakeSunat([answer('1')]);
    const { sunat } = client(fake);

    for (const type of ['BOLETA', 'NOTA_DE_CREDITO', 'NOTA_DE_DEBITO', 'RECIBO_POR_HONORARIOS'] as const) {
      await sunat.validate(COMPANY, { ...DOCUMENT, type });
    }

    expect(fake.validations().map((call) => JSON.parse(String(call.init.body)).codComp)).toEqual([
      '03',
      '07',
      '08',
      'R1',
    ]);
  });
});

describe('SUNAT adapter: the token', () => {
  it('is cached per company until shortly before it expires', async () => {
    // Prepare
    let now = 1_000_000;
    const fake = fakeSunat([answer('1')]);
    const { sunat } = client(fake, { now: () => now, tokenMarginMs: 60_000 });

    // Act
    await sunat.validate(COMPANY, DOCUMENT);
    now += 3_000_000; // 50 minutes: still valid
    await sunat.validate(COMPANY, DOCUMENT);
    await sunat.validate(OTHER_COMPANY, DOCUMENT);
    const beforeRenewal = fake.tokenRequests().length;
    now += 541_000; // 59 min 1 s after the first token: within the margin
    await sunat.validate(COMPANY, DOCUMENT);

    // Assess
    expect(beforeRenewal).toBe(2);
    expect(fake.tokenRequests().map((call) => call.url.split('/').at(-4))).toEqual([
      `id-${COMPANY}`,
      `id-${OTHER_COMPANY}`,
      `id-${COMPANY}`,
    ]);
  });

  it('is shared by concurrent queries of one company', async () => {
    const fake = fakeSunat([answer('1')]);
    const { sunat } = client(fake);

    await Promise.all([1, 2, 3].map(() => sunat.validate(COMPANY, DOCUMENT)));

    expect(fake.tokenRequests()).toHaveLength(1);
    expect(fake.validations()).toHaveLength(3);
  });

  it('is renewed once when SUNAT no longer accepts it', async () => {
    const fake = fakeSunat([{ status: 401, body: { msg: 'Token inválido' } }, answer('1')]);
    const { sunat } = client(fake);

    const verdict = await sunat.validate(COMPANY, DOCUMENT);

    expect(verdict.certStatus).toBe('VALID');
    expect(fake.tokenRequests()).toHaveLength(2);
  });

  it('refused (bad credentials) or missing credentials raise the SUNAT domain error', async () => {
    const refused = fakeSunat([answer('1')], { tokenReplies: [{ status: 401, body: { error: 'invalid_client' } }] });

    await expect(client(refused).sunat.validate(COMPANY, DOCUMENT)).rejects.toMatchObject({
      code: 'ERROR_UNEXPECTED_RESPONSE_FROM_SUNAT_VERIFICATION_SERVICE',
    });
    await expect(client(fakeSunat([answer('1')])).sunat.validate('20999999999', DOCUMENT)).rejects.toBeInstanceOf(
      SunatUnavailableError,
    );
  });
});

describe('SUNAT adapter: the verdict', () => {
  it.each([
    ['1', 'VALID', null],
    ['3', 'VALID', null],
    ['0', 'INVALID', 'El comprobante no existe en los registros de SUNAT.'],
    ['2', 'INVALID', 'El comprobante fue anulado (comunicado de baja) ante SUNAT.'],
    ['4', 'INVALID', 'El comprobante no está autorizado por SUNAT (imprenta no autorizada).'],
  ])('estadoCp %s is %s', async (estadoCp, certStatus, reason) => {
    const { sunat } = client(fakeSunat([answer(estadoCp)]));

    const verdict = await sunat.validate(COMPANY, DOCUMENT);

    expect(verdict).toMatchObject({ certStatus, reason, estadoCp });
  });

  it("keeps the taxpayer's state and address condition as SUNAT's labels, with the observations", async () => {
    const { sunat } = client(
      fakeSunat([answer('1', { estadoRuc: '01', condDomiRuc: '12', observaciones: ['- Observación.'] })]),
    );

    const verdict = await sunat.validate(COMPANY, DOCUMENT);

    expect(verdict).toEqual({
      certStatus: 'VALID',
      reason: null,
      estadoCp: '1',
      estadoRuc: 'BAJA PROVISIONAL',
      condDomiRuc: 'NO HABIDO',
      observaciones: ['- Observación.'],
    });
  });

  it('answers null labels when SUNAT gives no taxpayer data (document not found)', async () => {
    const { sunat } = client(fakeSunat([{ status: 200, body: { success: true, data: { estadoCp: '0' } } }]));

    const verdict = await sunat.validate(COMPANY, DOCUMENT);

    expect(verdict).toMatchObject({ certStatus: 'INVALID', estadoRuc: null, condDomiRuc: null, observaciones: [] });
  });

  it('treats an unsuccessful answer as an unexpected response, without retrying it', async () => {
    const fake = fakeSunat([{ status: 200, body: { success: false, message: 'Parámetros inválidos' } }]);

    await expect(client(fake).sunat.validate(COMPANY, DOCUMENT)).rejects.toBeInstanceOf(SunatUnavailableError);
    expect(fake.validations()).toHaveLength(1);
  });
});

describe('SUNAT adapter: failures', () => {
  it('retries 5xx and network errors with exponential backoff and jitter, then answers', async () => {
    // Prepare
    const fake = fakeSunat([{ status: 503 }, 'network-error', answer('1')]);
    const { sunat, sleeps } = client(fake, { baseDelayMs: 200, random: () => 0.5 });

    // Act
    const verdict = await sunat.validate(COMPANY, DOCUMENT);

    // Assess
    expect(verdict.certStatus).toBe('VALID');
    expect(fake.validations()).toHaveLength(3);
    expect(sleeps).toEqual([200, 400]);
  });

  it('gives up after three tries with the SUNAT domain error', async () => {
    const fake = fakeSunat([{ status: 500, body: { message: 'Internal Server Error' } }]);
    const { sunat } = client(fake);

    const error = await sunat.validate(COMPANY, DOCUMENT).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(SunatUnavailableError);
    expect(error).toMatchObject({
      code: 'ERROR_UNEXPECTED_RESPONSE_FROM_SUNAT_VERIFICATION_SERVICE',
      statusCode: 502,
      message: 'Ocurrió un error inesperado al verificar el comprobante con SUNAT. Inténtelo nuevamente más tarde.',
    });
    expect(fake.validations()).toHaveLength(3);
  });

  it('abandons a request that takes longer than the timeout and tries again', async () => {
    const fake = fakeSunat(['hang', answer('2')]);
    const { sunat } = client(fake, { timeoutMs: 20 });

    const verdict = await sunat.validate(COMPANY, DOCUMENT);

    expect(verdict.certStatus).toBe('INVALID');
    expect(fake.validations()).toHaveLength(2);
  });
});

describe('SUNAT credentials from the configuration', () => {
  it('reads the JSON map of SUNAT_CREDENTIALS', async () => {
    const credentials = credentialsFromEnv({
      SUNAT_CREDENTIALS: JSON.stringify({ [COMPANY]: { clientId: 'a', clientSecret: 'b' } }),
    });

    expect(await credentials(COMPANY)).toEqual({ clientId: 'a', clientSecret: 'b' });
    expect(await credentials(OTHER_COMPANY)).toBeNull();
  });

  it('fetches the Secrets Manager secret once and keeps it', async () => {
    // Prepare
    const requested: unknown[] = [];
    const secrets = {
      send: async (command: { input: unknown }) => {
        requested.push(command.input);
        return { SecretString: JSON.stringify({ [COMPANY]: { clientId: 'x', clientSecret: 'y' } }) };
      },
    } as unknown as SecretsManagerClient;
    const credentials = credentialsFromEnv({ SUNAT_CREDENTIALS_SECRET_ARN: 'arn:secret' }, () => secrets);

    // Act
    const [first, second] = await Promise.all([credentials(COMPANY), credentials(COMPANY)]);
    const other = await credentials(OTHER_COMPANY);

    // Assess
    expect([first, second, other]).toEqual([
      { clientId: 'x', clientSecret: 'y' },
      { clientId: 'x', clientSecret: 'y' },
      null,
    ]);
    expect(requested).toEqual([{ SecretId: 'arn:secret' }]);
  });

  it('rejects a secret that is not the expected map', async () => {
    const credentials = credentialsFromEnv({ SUNAT_CREDENTIALS: '{"20100070970": "plain"}' });

    await expect(credentials(COMPANY)).rejects.toBeInstanceOf(SunatUnavailableError);
  });
});
