import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../local/stand-ins/types.js';
import { localSunatCredentials, startSunatSimulator } from '../../../local/simulators/sunat.js';
import { SunatUnavailableError, makeSunatClient, type SunatDocument } from './sunat.js';

/** The adapter against the local stage's SUNAT simulator, over HTTP: the conventions tests and demo data rely on. */
const COMPANY = '20100070970';
const SUPPLIER = '20456178320';
const credentials = localSunatCredentials([COMPANY]);
let simulator: RunningService;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  simulator = await startSunatSimulator(await freePort(), '127.0.0.1', { credentials, slowMs: 400 });
});
afterAll(() => simulator.stop());

function adapter(ownCredentials = credentials) {
  return makeSunatClient({
    tokenUrl: simulator.endpoint,
    apiUrl: simulator.endpoint,
    credentials: async (ruc) => ownCredentials[ruc] ?? null,
    timeoutMs: 200,
    baseDelayMs: 10,
  });
}

let correlative = 1000;
/** A document whose correlative ends in `suffix`, never used by another test. */
function documentEndingIn(suffix: string): SunatDocument {
  correlative++;
  return {
    issuerRuc: SUPPLIER,
    type: 'FACTURA',
    series: 'F001',
    number: `${correlative}${suffix}`,
    issuedAt: '2026-10-05',
    amount: 118,
  };
}

const documentKey = (document: SunatDocument) => `${document.issuerRuc}-${document.series}-${document.number}`;

async function requestsFor(document: SunatDocument): Promise<number> {
  const counts = (await (await fetch(`${simulator.endpoint}/__control/requests`)).json()) as {
    documents: Record<string, number>;
  };
  return counts.documents[documentKey(document)] ?? 0;
}

describe('SUNAT simulator conventions, through the adapter', () => {
  it('answers valid for an ordinary correlative', async () => {
    const document = documentEndingIn('17');

    const verdict = await adapter().validate(COMPANY, document);

    expect(verdict).toMatchObject({ certStatus: 'VALID', estadoCp: '1', estadoRuc: 'ACTIVO', condDomiRuc: 'HABIDO' });
    expect(await requestsFor(document)).toBe(1);
  });

  it.each([
    ['90', '0'],
    ['91', '2'],
  ])('answers invalid for a correlative ending in %s (estadoCp %s)', async (suffix, estadoCp) => {
    const verdict = await adapter().validate(COMPANY, documentEndingIn(suffix));

    expect(verdict).toMatchObject({ certStatus: 'INVALID', estadoCp });
  });

  it('92 is slow once: the adapter times out, tries again and is answered', async () => {
    const document = documentEndingIn('92');

    const verdict = await adapter().validate(COMPANY, document);

    expect(verdict.certStatus).toBe('VALID');
    expect(await requestsFor(document)).toBe(2);
  });

  it('93 fails twice, then answers', async () => {
    const document = documentEndingIn('93');

    const verdict = await adapter().validate(COMPANY, document);

    expect(verdict.certStatus).toBe('VALID');
    expect(await requestsFor(document)).toBe(3);
  });

  it('94 always fails: the adapter gives up with the domain error', async () => {
    const document = documentEndingIn('94');

    await expect(adapter().validate(COMPANY, document)).rejects.toBeInstanceOf(SunatUnavailableError);
    expect(await requestsFor(document)).toBe(3);
  });

  it('the control endpoint chooses the outcome of one document over the convention', async () => {
    // Prepare
    const document = documentEndingIn('94');
    const chosen = await fetch(`${simulator.endpoint}/__control/outcomes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        numRuc: document.issuerRuc,
        numeroSerie: document.series,
        numero: document.number,
        outcome: 'NOT_AUTHORIZED',
      }),
    });

    // Act
    const verdict = await adapter().validate(COMPANY, document);

    // Assess
    expect(chosen.status).toBe(200);
    expect(verdict).toMatchObject({ certStatus: 'INVALID', estadoCp: '4' });
  });

  it('gives no token to unknown credentials', async () => {
    const wrong = { [COMPANY]: { clientId: credentials[COMPANY]!.clientId, clientSecret: 'otro' } };

    await expect(adapter(wrong).validate(COMPANY, documentEndingIn('17'))).rejects.toBeInstanceOf(
      SunatUnavailableError,
    );
  });
});

describe('SUNAT simulator on the stage’s clock', () => {
  const issuedOn = (date: string): SunatDocument => ({ ...documentEndingIn('17'), issuedAt: date });
  const limaToday = (now: Date) => new Date(now.getTime() - 5 * 3_600_000).toISOString().slice(0, 10);
  const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

  it('knows no document issued after its today (Lima): it answers that it does not exist', async () => {
    const verdict = await adapter().validate(COMPANY, issuedOn(dayAfter(limaToday(new Date()))));

    expect(verdict).toMatchObject({ certStatus: 'INVALID', estadoCp: '0' });
  });

  it('reads the stage’s clock: moved two days ahead, a document issued tomorrow exists', async () => {
    const ahead = await startSunatSimulator(await freePort(), '127.0.0.1', {
      credentials,
      clock: () => new Date(Date.now() + 2 * 86_400_000),
    });
    try {
      const client = makeSunatClient({
        tokenUrl: ahead.endpoint,
        apiUrl: ahead.endpoint,
        credentials: async (ruc) => credentials[ruc] ?? null,
        timeoutMs: 200,
        baseDelayMs: 10,
      });

      const verdict = await client.validate(COMPANY, issuedOn(dayAfter(limaToday(new Date()))));

      expect(verdict).toMatchObject({ certStatus: 'VALID', estadoCp: '1' });
    } finally {
      await ahead.stop();
    }
  });
});
