import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { makeSesMailer } from './email.js';
import { FILE_LINKS_ENV } from '@portal/shared';
import { documentsBucketFromEnv, makeDocumentFiles, type S3Bucket } from './s3.js';

const s3 = mockClient(S3Client);
const ses = mockClient(SESv2Client);

afterEach(() => {
  s3.reset();
  ses.reset();
});

const localBucket: S3Bucket = {
  name: 'portal-documentos',
  region: 'us-east-2',
  credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', sessionToken: 'token-de-sesion' },
  endpoint: 'http://127.0.0.1:4702',
  pathStyle: true,
};

const awsBucket: S3Bucket = {
  name: 'portal-prod-documentos',
  region: 'sa-east-1',
  credentials: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
  pathStyle: false,
};

const s3Error = (name: string, status: number) =>
  new S3ServiceException({ name, $fault: status >= 500 ? 'server' : 'client', $metadata: { httpStatusCode: status } });

describe('presigned links to the documents bucket', () => {
  it('gives a POST form whose policy pins the key, its type, its size and the metadata', async () => {
    const policy = {
      key: 'subidas/20700001011/abc/factura.xml',
      contentType: 'application/xml',
      maxBytes: 5 * 1024 * 1024,
      expiresInSeconds: 900,
      metadata: { kind: 'xml', owner: '20700001011' },
    };

    const post = await makeDocumentFiles(localBucket).presignPost(policy);

    expect(post.url).toBe('http://127.0.0.1:4702/portal-documentos');
    expect(post.fields).toMatchObject({
      key: policy.key,
      bucket: 'portal-documentos',
      'Content-Type': 'application/xml',
      'x-amz-meta-kind': 'xml',
      'x-amz-meta-owner': '20700001011',
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Security-Token': 'token-de-sesion',
    });
    const decoded = JSON.parse(Buffer.from(post.fields.Policy!, 'base64').toString()) as {
      expiration: string;
      conditions: unknown[];
    };
    expect(decoded.conditions).toEqual(
      expect.arrayContaining([
        { bucket: 'portal-documentos' },
        ['eq', '$key', policy.key],
        ['eq', '$Content-Type', 'application/xml'],
        ['content-length-range', 1, policy.maxBytes],
        { 'x-amz-meta-owner': '20700001011' },
      ]),
    );
    const expiresInMs = new Date(decoded.expiration).getTime() - Date.now();
    expect(expiresInMs).toBeGreaterThan(800_000);
    expect(expiresInMs).toBeLessThanOrEqual(900_000);
  });

  it('presigns a download link naming the file for the browser, signed for the host alone', async () => {
    const url = new URL(
      await makeDocumentFiles(localBucket).presignGet({
        key: 'facturas/F001 1.pdf',
        expiresInSeconds: 300,
        contentDisposition: 'attachment; filename="F001-1.pdf"',
        contentType: 'application/pdf',
      }),
    );
    expect(url.origin + url.pathname).toBe('http://127.0.0.1:4702/portal-documentos/facturas/F001%201.pdf');
    expect(url.searchParams.get('response-content-disposition')).toBe('attachment; filename="F001-1.pdf"');
    expect(url.searchParams.get('response-content-type')).toBe('application/pdf');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
    // A trace header signed into the link would make every browser download fail.
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
    expect(s3.calls()).toHaveLength(0);
  });

  it("addresses AWS's bucket by its virtual host, signed at the moment the clock gives", async () => {
    const url = new URL(
      await makeDocumentFiles(awsBucket, () => new Date('2026-11-24T10:15:30Z')).presignGet({
        key: 'facturas/F001-1.pdf',
        expiresInSeconds: 60,
        contentDisposition: 'inline',
      }),
    );
    expect(url.host).toBe('portal-prod-documentos.s3.sa-east-1.amazonaws.com');
    expect(url.searchParams.get('X-Amz-Date')).toBe('20261124T101530Z');
    expect(url.searchParams.get('X-Amz-Credential')).toBe('AKIAIOSFODNN7EXAMPLE/20261124/sa-east-1/s3/aws4_request');
    expect(url.searchParams.has('response-content-type')).toBe(false);
  });

  it('sends a link through the files distribution, signed as S3 checks it behind it (Host: the bucket domain)', async () => {
    const at = () => new Date('2026-11-24T10:15:30Z');
    const link = { key: 'uploads/20100070971/2026/11/a b.pdf', expiresInSeconds: 300, contentDisposition: 'inline' };
    const viaFiles = new URL(
      await makeDocumentFiles(
        {
          ...awsBucket,
          links: {
            origin: 'https://d111111abcdef8.cloudfront.net',
            bucketDomain: 'portal-prod-documentos.s3.sa-east-1.amazonaws.com',
          },
        },
        at,
      ).presignGet(link),
    );
    const direct = new URL(await makeDocumentFiles(awsBucket, at).presignGet(link));

    expect(viaFiles.origin).toBe('https://d111111abcdef8.cloudfront.net');
    // The same path and the same signature as a link straight to the bucket: S3 accepts what CloudFront forwards.
    expect(viaFiles.pathname).toBe(direct.pathname);
    expect(viaFiles.search).toBe(direct.search);
  });

  it('reads the links distribution from the environment, and goes straight to the bucket without it', () => {
    const env = { DOCUMENTS_BUCKET: 'docs', S3_FORCE_PATH_STYLE: 'false' };
    expect(documentsBucketFromEnv(env).links).toBeUndefined();
    expect(
      documentsBucketFromEnv({
        ...env,
        [FILE_LINKS_ENV.origin]: 'https://d1.cloudfront.net',
        [FILE_LINKS_ENV.bucketDomain]: 'docs.s3.sa-east-1.amazonaws.com',
      }).links,
    ).toEqual({ origin: 'https://d1.cloudfront.net', bucketDomain: 'docs.s3.sa-east-1.amazonaws.com' });
  });
});

describe('the documents bucket', () => {
  const files = () => makeDocumentFiles(localBucket);

  it('tells size, type and metadata of a stored file, and null for a missing one', async () => {
    s3.on(HeadObjectCommand, { Key: 'subidas/a b/factura.pdf' })
      .resolves({
        ContentLength: 2048,
        ContentType: 'application/pdf',
        Metadata: { owner: '20700001011', kind: 'pdf' },
      })
      .on(HeadObjectCommand, { Key: 'subidas/ninguno.pdf' })
      .rejects(s3Error('NotFound', 404));

    expect(await files().head('subidas/a b/factura.pdf')).toEqual({
      size: 2048,
      contentType: 'application/pdf',
      metadata: { owner: '20700001011', kind: 'pdf' },
    });
    expect(await files().head('subidas/ninguno.pdf')).toBeNull();
    expect(s3.commandCalls(HeadObjectCommand)[0]!.args[0].input).toEqual({
      Bucket: 'portal-documentos',
      Key: 'subidas/a b/factura.pdf',
    });
  });

  it('asks for the first bytes only, reads no more when the server sends the whole object, and nothing of an empty one', async () => {
    s3.on(GetObjectCommand, { Key: 'grande.xml' })
      .callsFake(async () => ({ Body: Readable.from([Buffer.alloc(6, 'x'), Buffer.alloc(100_000, 'y')]) }))
      .on(GetObjectCommand, { Key: 'vacio.xml' })
      .rejects(s3Error('InvalidRange', 416))
      .on(GetObjectCommand, { Key: 'ninguno.xml' })
      .rejects(new NoSuchKey({ message: 'The specified key does not exist.', $metadata: { httpStatusCode: 404 } }));

    const bytes = await files().readStart('grande.xml', 8);
    expect(Buffer.from(bytes!).toString()).toBe('xxxxxxyy');
    expect(s3.commandCalls(GetObjectCommand)[0]!.args[0].input.Range).toBe('bytes=0-7');
    expect((await files().readStart('vacio.xml', 8))!.length).toBe(0);
    expect(await files().readStart('ninguno.xml', 8)).toBeNull();
  });

  it('deletes a file, and reports a refusal as the S3 error it was', async () => {
    s3.on(DeleteObjectCommand, { Key: 'subidas/x.pdf' })
      .resolves({})
      .on(DeleteObjectCommand, { Key: 'subidas/y.pdf' })
      .rejects(s3Error('AccessDenied', 403));

    await files().delete('subidas/x.pdf');
    await expect(files().delete('subidas/y.pdf')).rejects.toMatchObject({
      name: 'AccessDenied',
      $metadata: { httpStatusCode: 403 },
    });
    expect(s3.commandCalls(DeleteObjectCommand).map((call) => call.args[0].input.Key)).toEqual([
      'subidas/x.pdf',
      'subidas/y.pdf',
    ]);
  });
});

describe('SES mail', () => {
  const mailer = (configurationSet?: string) =>
    makeSesMailer({
      client: { region: 'us-east-2' },
      sender: 'Portal <no-responder@proveedores.example.pe>',
      configurationSet,
    });
  const email = { to: 'ana@proveedor.pe', subject: 'Bienvenida', text: 'Hola', html: '<p>Hola</p>' };

  it('sends one SendEmail with simple content, from the portal, in its configuration set', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });

    await mailer('portal').send(email);

    expect(ses.commandCalls(SendEmailCommand).map((call) => call.args[0].input)).toEqual([
      {
        FromEmailAddress: 'Portal <no-responder@proveedores.example.pe>',
        Destination: { ToAddresses: ['ana@proveedor.pe'] },
        ConfigurationSetName: 'portal',
        Content: {
          Simple: {
            Subject: { Data: 'Bienvenida', Charset: 'UTF-8' },
            Body: { Text: { Data: 'Hola', Charset: 'UTF-8' }, Html: { Data: '<p>Hola</p>', Charset: 'UTF-8' } },
          },
        },
      },
    ]);
  });

  it('names no configuration set when the stage has none, and reports a rejected message', async () => {
    ses
      .on(SendEmailCommand)
      .rejects(
        new S3ServiceException({ name: 'MessageRejected', $fault: 'client', $metadata: { httpStatusCode: 400 } }),
      );

    await expect(mailer().send(email)).rejects.toMatchObject({ name: 'MessageRejected' });
    expect(ses.commandCalls(SendEmailCommand)[0]!.args[0].input).not.toHaveProperty('ConfigurationSetName');
  });
});
