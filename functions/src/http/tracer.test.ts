import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { GetItemCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import middy from '@middy/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTracer, daemonAddress, parseTraceHeader, type SubsegmentDocument } from './tracer.js';

const TRACE = 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1;Lineage=a87bd80c:0';
const LAMBDA_ENV = {
  AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
  AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
  _HANDLER: 'index.handler',
  _X_AMZN_TRACE_ID: TRACE,
};

function tracerWith(env: NodeJS.ProcessEnv, options: { instrumentFetch?: boolean } = {}) {
  const sent: SubsegmentDocument[] = [];
  let clock = 1_700_000_000_000;
  const tracer = createTracer({
    env,
    send: (document) => sent.push(structuredClone(document)),
    now: () => (clock += 5),
    instrumentFetch: options.instrumentFetch ?? false,
  });
  return { tracer, sent };
}

/** A DynamoDB client whose HTTP handler answers `status` with `body`, as DynamoDB would. */
function dynamoAnswering(status: number, body: unknown, headers: Record<string, string> = {}) {
  return new DynamoDBClient({
    region: 'sa-east-1',
    credentials: { accessKeyId: 'AKIA', secretAccessKey: 'secret' },
    maxAttempts: 1,
    requestHandler: {
      handle: async () => ({
        response: {
          statusCode: status,
          headers: { 'x-amzn-requestid': 'REQ-1', 'content-type': 'application/x-amz-json-1.0', ...headers },
          body: Readable.from([Buffer.from(JSON.stringify(body))]),
        },
      }),
    } as never,
  });
}

describe('the trace header', () => {
  it('reads root, parent, sampling and passes the other fields on', () => {
    expect(parseTraceHeader(TRACE)).toEqual({
      root: '1-5759e988-bd862e3fe1be46a994272793',
      parent: '53995c3f42cd8ad8',
      sampled: true,
      extra: ';Lineage=a87bd80c:0',
    });
    expect(parseTraceHeader('Root=1-abc;Parent=def;Sampled=0')?.sampled).toBe(false);
    expect(parseTraceHeader(undefined)).toBeNull();
    expect(parseTraceHeader('Root=1-abc')).toBeNull();
  });

  it("finds the daemon's UDP address in both of Lambda's forms", () => {
    expect(daemonAddress('169.254.79.129:2000')).toEqual({ host: '169.254.79.129', port: 2000 });
    expect(daemonAddress('tcp:127.0.0.1:2000 udp:127.0.0.2:2001')).toEqual({ host: '127.0.0.2', port: 2001 });
    expect(daemonAddress(undefined)).toEqual({ host: '127.0.0.1', port: 2000 });
  });
});

describe('the tracer', () => {
  it('records nothing outside Lambda or when switched off', async () => {
    for (const env of [
      { ...LAMBDA_ENV, AWS_EXECUTION_ENV: '' },
      { ...LAMBDA_ENV, POWERTOOLS_TRACE_ENABLED: 'false' },
    ]) {
      const { tracer, sent } = tracerWith(env);
      expect(tracer.enabled).toBe(false);
      const client = dynamoAnswering(200, { Item: { pk: { S: 'a' } } });
      expect(tracer.captureAWSv3Client(client)).toBe(client);
      const handler = middy(async () => client.send(new GetItemCommand({ TableName: 't', Key: {} }))).use(
        tracer.invocation(),
      );
      await handler({}, {} as never);
      expect(sent).toEqual([]);
    }
  });

  it("makes the handler a subsegment of Lambda's segment, annotated with the cold start and the service", async () => {
    const { tracer, sent } = tracerWith(LAMBDA_ENV);
    const handler = middy(async () => 'ok').use(tracer.invocation());
    await handler({}, {} as never);
    await handler({}, {} as never);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatchObject({
      type: 'subsegment',
      name: '## index.handler',
      trace_id: '1-5759e988-bd862e3fe1be46a994272793',
      parent_id: '53995c3f42cd8ad8',
      annotations: { ColdStart: true, Service: 'portal-proveedores' },
    });
    expect(sent[0]!.id).toMatch(/^[0-9a-f]{16}$/);
    expect(sent[0]!.end_time).toBeGreaterThan(sent[0]!.start_time);
    expect(sent[1]!.annotations).toEqual({ ColdStart: false, Service: 'portal-proveedores' });
    expect(sent[0]!.fault).toBeUndefined();
  });

  it('records the error of a failed invocation as a fault with its cause', async () => {
    const { tracer, sent } = tracerWith(LAMBDA_ENV);
    const handler = middy(async () => {
      throw new TypeError('boom');
    }).use(tracer.invocation());
    await expect(handler({}, {} as never)).rejects.toThrow('boom');
    expect(sent[0]).toMatchObject({ fault: true, cause: { exceptions: [{ type: 'TypeError', message: 'boom' }] } });
    expect(sent[0]!.cause!.exceptions[0]!.stack[0]!.path).toContain('tracer.test.ts');
  });

  it('sends nothing for an invocation X-Ray did not sample', async () => {
    const { tracer, sent } = tracerWith({ ...LAMBDA_ENV, _X_AMZN_TRACE_ID: TRACE.replace('Sampled=1', 'Sampled=0') });
    await middy(async () => 'ok').use(tracer.invocation())({}, {} as never);
    expect(sent).toEqual([]);
  });

  it('makes each AWS call a subsegment of the handler, and the parent of what the call causes', async () => {
    const { tracer, sent } = tracerWith(LAMBDA_ENV);
    const headers: Record<string, string>[] = [];
    const client = tracer.captureAWSv3Client(dynamoAnswering(200, { Item: { pk: { S: 'a' } } }));
    client.middlewareStack.add(
      (next) => async (args) => {
        headers.push({ ...(args.request as { headers: Record<string, string> }).headers });
        return next(args);
      },
      { step: 'finalizeRequest' },
    );
    // Instrumenting twice must not record every call twice.
    tracer.captureAWSv3Client(client);
    const handler = middy(async () => client.send(new GetItemCommand({ TableName: 'portal-dev', Key: {} }))).use(
      tracer.invocation(),
    );
    await handler({}, {} as never);

    const [call, invocation] = sent;
    expect(sent).toHaveLength(2);
    expect(call).toMatchObject({
      name: 'DynamoDB',
      namespace: 'aws',
      parent_id: invocation!.id,
      trace_id: '1-5759e988-bd862e3fe1be46a994272793',
      aws: { operation: 'GetItem', region: 'sa-east-1', request_id: 'REQ-1', retries: 1, table_name: 'portal-dev' },
      http: { response: { status: 200 } },
    });
    expect(call!.error ?? call!.fault).toBeUndefined();
    expect(headers[0]!['X-Amzn-Trace-Id']).toBe(
      `Root=1-5759e988-bd862e3fe1be46a994272793;Parent=${call!.id};Sampled=1;Lineage=a87bd80c:0`,
    );
  });

  it('flags a refused call as an error, a throttled one as throttled too', async () => {
    const { tracer, sent } = tracerWith(LAMBDA_ENV);
    const client = tracer.captureAWSv3Client(
      dynamoAnswering(400, {
        __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
        message: 'slow down',
      }),
    );
    const handler = middy(async () => client.send(new GetItemCommand({ TableName: 't', Key: {} }))).use(
      tracer.invocation(),
    );
    await expect(handler({}, {} as never)).rejects.toThrow('slow down');
    expect(sent[0]).toMatchObject({
      name: 'DynamoDB',
      error: true,
      throttle: true,
      fault: true,
      http: { response: { status: 400 } },
      cause: { exceptions: [{ type: 'ProvisionedThroughputExceededException', remote: true }] },
    });
  });

  it('leaves calls made outside an invocation untraced', async () => {
    const { tracer, sent } = tracerWith(LAMBDA_ENV);
    const client = tracer.captureAWSv3Client(dynamoAnswering(200, {}));
    await client.send(new GetItemCommand({ TableName: 't', Key: {} }));
    expect(sent).toEqual([]);
  });

  describe('with fetch', () => {
    let server: Server;
    let origin: string;
    const seen: (string | undefined)[] = [];

    beforeAll(async () => {
      server = createServer((request, response) => {
        seen.push(request.headers['x-amzn-trace-id'] as string | undefined);
        response.writeHead(request.url?.startsWith('/missing') ? 404 : 200, { 'content-length': '2' });
        response.end('{}');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    it('makes each request a remote subsegment, its URL without the query', async () => {
      const { tracer, sent } = tracerWith(LAMBDA_ENV, { instrumentFetch: true });
      const handler = middy(async () => {
        await (await fetch(`${origin}/sap/token?secret=1`)).text();
        await (await fetch(`${origin}/missing`)).text();
      }).use(tracer.invocation());
      await handler({}, {} as never);

      const calls = sent.filter((document) => document.namespace === 'remote');
      const invocation = sent.find((document) => document.name === '## index.handler')!;
      expect(calls).toHaveLength(2);
      expect(calls[0]).toMatchObject({
        name: '127.0.0.1',
        parent_id: invocation.id,
        // As Powertools recorded it: scheme, host and path (no port, no query).
        http: {
          request: { url: 'http://127.0.0.1/sap/token', method: 'GET' },
          response: { status: 200, content_length: 2 },
        },
      });
      expect(calls[1]).toMatchObject({ error: true, http: { response: { status: 404 } } });
      expect(seen.at(-2)).toBe(
        `Root=1-5759e988-bd862e3fe1be46a994272793;Parent=${calls[0]!.id};Sampled=1;Lineage=a87bd80c:0`,
      );
    });
  });
});
