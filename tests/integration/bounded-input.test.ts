import net from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  API_SECURITY_HEADERS,
  HEADERS,
  MAX_AMOUNT_TEXT,
  TEXT_LIMITS,
  formatErrorMessage,
  keys,
  routes,
  todayInLima,
  withCheckDigit,
} from '@portal/shared';
import { CLIENTS, SUPPLIERS, tenantFixture } from '../support/tenant.js';
import { ADVERTISED_IDLE_SECONDS } from '../../local/stand-ins/types.js';
import { call, idTokenOf, type CallResult } from '../support/api.js';
import { table } from '../support/fixtures.js';
import { demoUser, stage } from '../support/stage.js';
import { MINIMAL_PDF, uploadAs } from '../support/uploads.js';
import { randomCorrelative } from '../support/invoices.js';

// Bounded input: texts, amounts and dates beyond the product's limits, and the gateway's own answers.

const FACTURA = tenantFixture('ubl/factura-ubl21-credito.xml');
const supplierToken = () => idTokenOf(demoUser('SUPPLIER').username, demoUser('SUPPLIER').password);
const adminToken = () => idTokenOf(demoUser('ADMIN').username, demoUser('ADMIN').password);

/** The documented error body, with the catalogue's Spanish message of its first code and the txId of the call. */
function expectRefusal(response: CallResult, status: number, code: string, parameters?: Record<string, unknown>) {
  expect({ status: response.status, code: response.body?.errors?.[0]?.code }).toEqual({ status, code });
  expect(response.body).toEqual({
    statusCode: status,
    message: formatErrorMessage(code as never, response.body.errors[0].parameters),
    txId: response.requestId,
    errors: [{ code, parameters: parameters ?? expect.any(Object) }],
  });
}

/**
 * The factura of the corpus as a new document of its own (a fresh correlative), from a test-only supplier to the
 * company no demo manager reviews (what these tests store stays out of the other tests' screens), with some of
 * its data changed. The administrator submits it, as it may for any supplier.
 */
const TEST_SUPPLIER = withCheckDigit('2070000007');
function factura(change: { supplierName?: string; payable?: string; issueDate?: string } = {}) {
  const numericId = randomCorrelative();
  let xml = FACTURA.replace('<cbc:ID>F001-00000458</cbc:ID>', `<cbc:ID>F001-${numericId}</cbc:ID>`)
    .replaceAll(SUPPLIERS[0]!.taxId, TEST_SUPPLIER)
    .replaceAll(CLIENTS[0]!.taxId, CLIENTS[2]!.taxId);
  if (change.supplierName !== undefined) {
    xml = xml.replace(
      '<cbc:RegistrationName><![CDATA[SERVICIOS INDUSTRIALES LIMA S.A.C.]]></cbc:RegistrationName>',
      `<cbc:RegistrationName>${change.supplierName}</cbc:RegistrationName>`,
    );
  }
  if (change.payable !== undefined) {
    xml = xml.replace('>11800.00</cbc:PayableAmount>', `>${change.payable}</cbc:PayableAmount>`);
  }
  if (change.issueDate !== undefined) {
    xml = xml.replace(
      '<cbc:IssueDate>2025-03-14</cbc:IssueDate>',
      `<cbc:IssueDate>${change.issueDate}</cbc:IssueDate>`,
    );
  }
  return { xml: Buffer.from(xml, 'utf8'), key: keys.invoice(TEST_SUPPLIER, 'FACTURA', `F001-${numericId}`) };
}

async function submitXml(xml: Buffer) {
  const token = await adminToken();
  const url = await uploadAs(token, 'INVOICE_XML', xml, 'application/xml', 'comprobante.xml');
  return call(routes.createInvoiceFromXml, { token, body: { url } });
}

async function submitForm(change: Record<string, unknown>) {
  const token = await adminToken();
  const pdfUrl = await uploadAs(token, 'INVOICE_PDF', MINIMAL_PDF, 'application/pdf', 'comprobante.pdf');
  const numericId = randomCorrelative();
  const supplierTaxId = withCheckDigit('2070000005');
  const response = await call(routes.createInvoiceWithoutXml, {
    token,
    body: {
      prefixId: 'F003',
      numericId,
      type: 'FACTURA',
      clientTaxId: CLIENTS[2]!.taxId,
      supplierTaxId,
      supplierName: 'Proveedor de Límites S.A.C.',
      currency: 'PEN',
      amount: 1180,
      taxAmount: 180,
      issueDate: '2025-06-02',
      pdfUrl,
      ...change,
    },
  });
  return { response, key: keys.invoice(supplierTaxId, 'FACTURA', `F003-${numericId}`) };
}

const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

describe('bounded input: an XML', () => {
  it('refuses a 203 KB supplier name with 400 ERROR_XML_FIELD_TOO_LONG and stores nothing; a name at the maximum is stored', async () => {
    const huge = factura({ supplierName: 'A'.repeat(203 * 1024) });
    expectRefusal(await submitXml(huge.xml), 400, 'ERROR_XML_FIELD_TOO_LONG', {
      field: 'razón social del emisor',
      limit: TEXT_LIMITS.partyName,
    });
    expect(await table().get(huge.key)).toBeUndefined();

    const name = 'Ñ'.repeat(TEXT_LIMITS.partyName);
    const atMaximum = factura({ supplierName: name });
    const stored = await submitXml(atMaximum.xml);
    expect(stored.status).toBe(201);
    expect(stored.body.supplierName).toBe(name);
  });

  it('refuses 999999999999999.99 (stored as 1e15 before) and stores nothing', async () => {
    const document = factura({ payable: '999999999999999.99' });
    expectRefusal(await submitXml(document.xml), 400, 'ERROR_INVOICE_AMOUNT_OUT_OF_RANGE', {
      field: 'importe total',
      limit: MAX_AMOUNT_TEXT,
    });
    expect(await table().get(document.key)).toBeUndefined();
  });

  it('refuses an issue date after today in Lima, or before 2010', async () => {
    const tomorrow = dayAfter(todayInLima());
    const future = factura({ issueDate: tomorrow });
    expectRefusal(await submitXml(future.xml), 400, 'ERROR_INVOICE_ISSUE_DATE_IN_FUTURE');
    expect(await table().get(future.key)).toBeUndefined();
    const ancient = factura({ issueDate: '1999-12-31' });
    expectRefusal(await submitXml(ancient.xml), 400, 'ERROR_INVOICE_ISSUE_DATE_TOO_OLD', {
      date: '31/12/1999',
      floor: '01/01/2010',
    });
    expect(await table().get(ancient.key)).toBeUndefined();
  });
});

describe('bounded input: the form without XML', () => {
  it('refuses a huge name, the 1e15 amount, a future and an ancient date, each naming the field', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { supplierName: 'A'.repeat(203 * 1024) },
        'supplierName',
        `admite como máximo ${TEXT_LIMITS.partyName} caracteres`,
      ],
      [{ amount: Number('999999999999999.99') }, 'amount', `no puede superar ${MAX_AMOUNT_TEXT}`],
      [{ issueDate: dayAfter(todayInLima()) }, 'issueDate', 'no puede ser posterior a la fecha de hoy'],
      [{ issueDate: '1999-12-31' }, 'issueDate', 'no puede ser anterior al 01/01/2010'],
    ];
    for (const [change, parameter, reason] of cases) {
      const { response, key } = await submitForm(change);
      expectRefusal(response, 400, 'ERROR_INVALID_PARAMETER', { parameter, reason });
      expect(await table().get(key)).toBeUndefined();
    }
    const { response } = await submitForm({ amount: 9999999999.99, taxAmount: 1525423728.81 });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ amount: 9999999999.99, taxAmount: 1525423728.81 });
  });
});

describe("the gateway's own answers", () => {
  /** A raw request: fetch would normalise what these tests must send as is. */
  async function raw(method: string, target: string, headers: Record<string, string> = {}) {
    const token = await supplierToken();
    const response = await fetch(stage().apiUrl + target, {
      method,
      headers: { authorization: `Bearer ${token}`, [HEADERS.requestId]: 'gateway-test-0001', ...headers },
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
  }

  function expectGatewayRefusal(
    response: Awaited<ReturnType<typeof raw>>,
    status: number,
    code: string,
    txId?: string,
  ) {
    expect(response.status).toBe(status);
    expect(response.body).toEqual({
      statusCode: status,
      message: formatErrorMessage(code as never, response.body.errors[0].parameters),
      txId: txId ?? expect.any(String),
      errors: [{ code, parameters: expect.any(Object) }],
    });
    for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) expect(response.headers.get(name)).toBe(value);
  }

  it('answers 400 ERROR_INVALID_PARAMETER to malformed percent-escapes in a path, naming the parameter', async () => {
    const supplier = SUPPLIERS[0]!.taxId;
    for (const bad of ['%E0%A4%A', '%zz', '%', '%ED%A0%80']) {
      const response = await raw('GET', `/suppliers/${supplier}/invoices/FACTURA/${bad}`);
      expectGatewayRefusal(response, 400, 'ERROR_INVALID_PARAMETER', 'gateway-test-0001');
      expect(response.body.errors[0].parameters).toEqual({
        parameter: 'invoiceId',
        reason: 'contiene una secuencia de escape (%) mal formada',
      });
    }
    // Outside any route's parameters: the path as a whole.
    const outside = await raw('GET', '/invoices%zz/x');
    expectGatewayRefusal(outside, 400, 'ERROR_INVALID_PARAMETER');
    expect(outside.body.errors[0].parameters.parameter).toBe('path');
  });

  it('answers 404 ERROR_ROUTE_NOT_FOUND to an unknown route or method, with the security headers', async () => {
    expectGatewayRefusal(await raw('GET', '/no-such-route'), 404, 'ERROR_ROUTE_NOT_FOUND', 'gateway-test-0001');
    const wrongMethod = await raw('DELETE', '/invoices');
    expectGatewayRefusal(wrongMethod, 404, 'ERROR_ROUTE_NOT_FOUND');
    expect(wrongMethod.body.errors[0].parameters).toEqual({ method: 'DELETE', path: '/invoices' });
    // The $default route's function answers before it reads a body, even one that is not JSON.
    const token = await supplierToken();
    const unparseable = await fetch(`${stage().apiUrl}/no-such-route`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{not json',
    });
    expectGatewayRefusal(
      { status: unparseable.status, headers: unparseable.headers, body: await unparseable.json() },
      404,
      'ERROR_ROUTE_NOT_FOUND',
    );
  });

  it("answers 431 beyond API Gateway's 10,240 bytes of request line and headers, 413 beyond 6 MB of body", async () => {
    expectGatewayRefusal(
      await raw('GET', `/invoices?search=${'x'.repeat(12_000)}`),
      431,
      'ERROR_REQUEST_HEADERS_TOO_LARGE',
    );
    expectGatewayRefusal(
      await raw('GET', '/invoices', { 'x-padding': 'y'.repeat(12_000) }),
      431,
      'ERROR_REQUEST_HEADERS_TOO_LARGE',
    );
    // A body beyond Lambda's 6 MB payload.
    const token = await supplierToken();
    const tooLarge = await fetch(`${stage().apiUrl}/invoices`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'x'.repeat(7 * 1024 * 1024) }),
    });
    expectGatewayRefusal(
      { status: tooLarge.status, headers: tooLarge.headers, body: await tooLarge.json() },
      413,
      'ERROR_REQUEST_TOO_LARGE',
    );
    // Within it, the same request is served.
    expect((await raw('GET', `/invoices?search=${'x'.repeat(50)}`)).status).toBe(200);
  });

  /** A raw connection to the API, collecting what it answers and how it ends. */
  async function connection() {
    const { hostname, port } = new URL(stage().apiUrl);
    const socket = net.connect(Number(port), hostname);
    socket.setEncoding('latin1');
    const seen = { text: '', error: null as NodeJS.ErrnoException | null, closed: false };
    socket.on('data', (chunk: string) => (seen.text += chunk));
    socket.on('error', (error) => (seen.error = error));
    socket.on('close', () => (seen.closed = true));
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const answers = async (count: number) => {
      await expect
        .poll(() => seen.text.match(/HTTP\/1\.1 \d{3}/g)?.length ?? 0, { timeout: 5_000, interval: 20 })
        .toBe(count);
      return seen.text.split(/(?=HTTP\/1\.1 \d{3})/);
    };
    return { socket, seen, answers, hostname };
  }

  it('keeps an idle connection open past the keep-alive time it advertises, so a client reusing it is never cut off', async () => {
    const { socket, seen, answers, hostname } = await connection();
    const request = (body: string) =>
      `POST /no-such-route HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\n` +
      `content-length: ${body.length}\r\n\r\n${body}`;
    try {
      socket.write(request('{}'));
      const [first] = await answers(1);
      expect(first).toMatch(/^HTTP\/1\.1 404 /);
      expect(first!.toLowerCase()).toContain(`\r\nkeep-alive: timeout=${ADVERTISED_IDLE_SECONDS}\r\n`);
      // The advertised time idle and two seconds more (Node's own server closes a second after it): still open, and it
      // takes a request with a body.
      await new Promise((resolve) => setTimeout(resolve, (ADVERTISED_IDLE_SECONDS + 2) * 1000));
      expect(seen.closed).toBe(false);
      socket.write(request(JSON.stringify({ padding: 'x'.repeat(200_000) })));
      expect((await answers(2))[1]).toMatch(/^HTTP\/1\.1 404 /);
      expect(seen.error).toBeNull();
    } finally {
      socket.destroy();
    }
  }, 20_000);

  it('answers 431 to a request still sending its body, reads the rest, and closes without a reset', async () => {
    const { socket, seen, answers, hostname } = await connection();
    const body = JSON.stringify({ padding: 'x'.repeat(3_000_000) });
    try {
      // Headers and body in one write, as fetch sends them: the refusal comes after the first 64 KB, while most
      // of the body is still on its way.
      const written = new Promise<void>((resolve) =>
        socket.write(
          `POST /invoices?search=${'x'.repeat(12_000)} HTTP/1.1\r\nhost: ${hostname}\r\n` +
            `content-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
          () => resolve(),
        ),
      );
      const [refusal] = await answers(1);
      expect(refusal).toMatch(/^HTTP\/1\.1 431 /);
      expect(JSON.parse(refusal!.slice(refusal!.indexOf('\r\n\r\n') + 4)).errors[0].code).toBe(
        'ERROR_REQUEST_HEADERS_TOO_LARGE',
      );
      await written;
      socket.end();
      await expect.poll(() => seen.closed, { timeout: 5_000 }).toBe(true);
      // Cut off with the body unread, the client met EPIPE or ECONNRESET writing it.
      expect(seen.error).toBeNull();
    } finally {
      socket.destroy();
    }
  }, 20_000);
});
