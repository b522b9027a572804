import { S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AwsRequestError, presignUrl } from './aws-rest.js';
import { makeSesMailer } from './email.js';
import { makeDocumentFiles, type S3Bucket } from './s3.js';

/** The example account and day of AWS's Signature Version 4 documentation for S3. */
const EXAMPLE_CREDENTIALS = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
};
const EXAMPLE_DAY = new Date('2013-05-24T00:00:00Z');

type Sent = { url: string; method: string; headers: Record<string, string>; body: string | undefined };

/** A scripted AWS endpoint: each answer in turn, recording what was sent. */
function scripted(answers: (() => Response)[]): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    sent.push({
      url,
      method: init.method ?? 'GET',
      headers: init.headers as Record<string, string>,
      body: init.body as string | undefined,
    });
    const answer = answers.shift();
    if (!answer) throw new Error('no answer scripted');
    return answer();
  });
  return sent;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const localBucket: S3Bucket = {
  name: 'portal-documentos',
  region: 'us-east-2',
  credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  endpoint: 'http://127.0.0.1:4702',
  pathStyle: true,
};

describe('S3 requests are signed as AWS documents them', () => {
  it('signs a ranged GetObject exactly as the documentation example (host, range, payload hash, date)', async () => {
    vi.useFakeTimers({ now: EXAMPLE_DAY, toFake: ['Date'] });
    const sent = scripted([() => new Response('0123456789', { status: 206 })]);
    const files = makeDocumentFiles({
      name: 'examplebucket',
      region: 'us-east-1',
      credentials: EXAMPLE_CREDENTIALS,
      endpoint: 'https://s3.amazonaws.com',
      pathStyle: false,
    });

    const bytes = await files.readStart('test.txt', 10);

    expect(Buffer.from(bytes!).toString()).toBe('0123456789');
    expect(sent[0]!.url).toBe('https://examplebucket.s3.amazonaws.com/test.txt');
    expect(sent[0]!.headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, ' +
        'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, ' +
        'Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
  });

  it('presigns a GET link exactly as the documentation example (one day, host only, unsigned payload)', async () => {
    const url = await presignUrl(
      {
        signingName: 's3',
        region: 'us-east-1',
        credentials: EXAMPLE_CREDENTIALS,
        endpoint: 'https://examplebucket.s3.amazonaws.com',
      },
      { method: 'GET', path: '/test.txt' },
      86_400,
      EXAMPLE_DAY,
    );

    const query = new URL(url).searchParams;
    expect(url.startsWith('https://examplebucket.s3.amazonaws.com/test.txt?')).toBe(true);
    expect(query.get('X-Amz-SignedHeaders')).toBe('host');
    expect(query.get('X-Amz-Expires')).toBe('86400');
    expect(query.get('X-Amz-Signature')).toBe('aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404');
  });

  it('gives the same presigned POST form as the SDK for the same moment, key, type, size and metadata', async () => {
    const now = new Date('2026-11-24T10:15:30.000Z');
    vi.useFakeTimers({ now, toFake: ['Date'] });
    const policy = {
      key: 'subidas/20700001011/abc/factura.xml',
      contentType: 'application/xml',
      maxBytes: 5 * 1024 * 1024,
      expiresInSeconds: 900,
      metadata: { kind: 'xml', owner: '20700001011' },
    };
    const sdk = await createPresignedPost(
      new S3Client({
        region: localBucket.region,
        endpoint: localBucket.endpoint,
        forcePathStyle: true,
        credentials: { ...(localBucket.credentials as object), sessionToken: 'token-de-sesion' } as never,
      }),
      {
        Bucket: localBucket.name,
        Key: policy.key,
        Expires: policy.expiresInSeconds,
        Fields: { 'Content-Type': policy.contentType, 'x-amz-meta-kind': 'xml', 'x-amz-meta-owner': '20700001011' },
        Conditions: [
          { bucket: localBucket.name },
          ['eq', '$key', policy.key],
          ['eq', '$Content-Type', policy.contentType],
          ['content-length-range', 1, policy.maxBytes],
        ],
      },
    );

    const ours = await makeDocumentFiles(
      {
        ...localBucket,
        credentials: { ...(localBucket.credentials as object), sessionToken: 'token-de-sesion' } as never,
      },
      () => now,
    ).presignPost(policy);

    expect(ours.url).toBe(sdk.url);
    expect(ours.fields).toEqual(sdk.fields);
    const decoded = JSON.parse(Buffer.from(ours.fields.Policy!, 'base64').toString()) as { expiration: string };
    expect(decoded.expiration).toBe('2026-11-24T10:30:30Z');
  });
});

describe('the documents bucket', () => {
  const files = () => makeDocumentFiles(localBucket);

  it('tells size, type and metadata of a stored file, and null for a missing one', async () => {
    const sent = scripted([
      () =>
        new Response(null, {
          status: 200,
          headers: {
            'content-length': '2048',
            'content-type': 'application/pdf',
            'x-amz-meta-owner': '20700001011',
            'x-amz-meta-kind': 'pdf',
          },
        }),
      () => new Response(null, { status: 404 }),
    ]);

    expect(await files().head('subidas/a b/factura.pdf')).toEqual({
      size: 2048,
      contentType: 'application/pdf',
      metadata: { owner: '20700001011', kind: 'pdf' },
    });
    expect(await files().head('subidas/ninguno.pdf')).toBeNull();
    expect(sent[0]!.method).toBe('HEAD');
    expect(sent[0]!.url).toBe('http://127.0.0.1:4702/portal-documentos/subidas/a%20b/factura.pdf');
  });

  it('reads no more than asked when the server sends the whole object, and nothing of an empty one', async () => {
    scripted([
      () => new Response('x'.repeat(100_000), { status: 200 }),
      () => new Response('<Error><Code>InvalidRange</Code></Error>', { status: 416 }),
      () => new Response('<Error><Code>NoSuchKey</Code></Error>', { status: 404 }),
    ]);

    expect((await files().readStart('grande.xml', 8))!.length).toBe(8);
    expect((await files().readStart('vacio.xml', 8))!.length).toBe(0);
    expect(await files().readStart('ninguno.xml', 8)).toBeNull();
  });

  it('tries again after a server fault, and reports a refusal with its S3 error code', async () => {
    const sent = scripted([
      () => new Response('<Error><Code>SlowDown</Code></Error>', { status: 503 }),
      () => new Response(null, { status: 204 }),
      () => new Response('<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>', { status: 403 }),
    ]);

    await files().delete('subidas/x.pdf');
    expect(sent.map((call) => call.method)).toEqual(['DELETE', 'DELETE']);

    const refusal = await files()
      .delete('subidas/y.pdf')
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AwsRequestError);
    expect(refusal).toMatchObject({ status: 403, code: 'AccessDenied', operation: 'DeleteObject' });
    // A refusal is not tried again.
    expect(sent).toHaveLength(3);
  });

  it('presigns a download link naming the file for the browser', async () => {
    const url = new URL(
      await files().presignGet({
        key: 'facturas/F001-1.pdf',
        expiresInSeconds: 300,
        contentDisposition: 'attachment; filename="F001-1.pdf"',
        contentType: 'application/pdf',
      }),
    );
    expect(url.origin + url.pathname).toBe('http://127.0.0.1:4702/portal-documentos/facturas/F001-1.pdf');
    expect(url.searchParams.get('response-content-disposition')).toBe('attachment; filename="F001-1.pdf"');
    expect(url.searchParams.get('response-content-type')).toBe('application/pdf');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
  });
});

describe('SES mail', () => {
  const mailer = () =>
    makeSesMailer({
      service: {
        signingName: 'ses',
        region: 'us-east-2',
        credentials: EXAMPLE_CREDENTIALS,
        endpoint: 'https://email.us-east-2.amazonaws.com',
      },
      sender: 'Portal <no-responder@proveedores.example.pe>',
      configurationSet: 'portal',
    });
  const email = { to: 'ana@proveedor.pe', subject: 'Bienvenida', text: 'Hola', html: '<p>Hola</p>' };

  it('sends one SendEmail request with simple content, signed for SES', async () => {
    const sent = scripted([() => new Response('{"MessageId":"m-1"}', { status: 200 })]);

    await mailer().send(email);

    expect(sent[0]!.url).toBe('https://email.us-east-2.amazonaws.com/v2/email/outbound-emails');
    expect(sent[0]!.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\/\d{8}\/us-east-2\/ses\//,
    );
    expect(JSON.parse(sent[0]!.body!)).toEqual({
      FromEmailAddress: 'Portal <no-responder@proveedores.example.pe>',
      Destination: { ToAddresses: ['ana@proveedor.pe'] },
      ConfigurationSetName: 'portal',
      Content: {
        Simple: {
          Subject: { Data: 'Bienvenida', Charset: 'UTF-8' },
          Body: { Text: { Data: 'Hola', Charset: 'UTF-8' }, Html: { Data: '<p>Hola</p>', Charset: 'UTF-8' } },
        },
      },
    });
  });

  it('reports a rejected message with the error type SES gave', async () => {
    scripted([
      () =>
        new Response('{"message":"Email address is not verified."}', {
          status: 400,
          headers: { 'x-amzn-errortype': 'MessageRejected:http://internal.amazon.com/' },
        }),
    ]);

    await expect(mailer().send(email)).rejects.toMatchObject({ status: 400, code: 'MessageRejected' });
  });
});
