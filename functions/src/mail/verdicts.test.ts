import { generateKeyPairSync } from 'node:crypto';
import nodemailer from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { verdictsFromSes } from './verdicts.js';
import { tableResolver, verifyWithMailauth } from './verify-with-mailauth.js';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PRIVATE = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const PUBLIC = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');

const dns = tableResolver({
  'proveedor.pe': { TXT: ['v=spf1 ip4:127.0.0.1 -all'] },
  'portal._domainkey.proveedor.pe': { TXT: [`v=DKIM1; k=rsa; p=${PUBLIC}`] },
});

async function message(options: { from?: string; signWith?: string; domain?: string } = {}): Promise<Buffer> {
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    ...(options.signWith
      ? { dkim: { domainName: options.domain ?? 'proveedor.pe', keySelector: 'portal', privateKey: options.signWith } }
      : {}),
  });
  const info = await transport.sendMail({
    from: options.from ?? 'facturacion@proveedor.pe',
    to: 'facturas+20100070970@recepcion.grupo.pe',
    subject: 'Factura',
    text: 'Adjunto.',
  });
  return info.message as Buffer;
}

const envelope = (remoteAddress: string, mailFrom = 'facturacion@proveedor.pe') => ({
  remoteAddress,
  helo: 'mail.proveedor.pe',
  mailFrom,
});

describe('the local verifier (mailauth with the stage’s DNS records)', () => {
  it('authenticates the From domain by DKIM and by SPF', async () => {
    const verdicts = await verifyWithMailauth(await message({ signWith: PRIVATE }), envelope('127.0.0.1'), dns, 'test');
    expect(verdicts).toMatchObject({ spf: 'PASS', dkim: 'PASS', authenticatedDomain: 'proveedor.pe' });
  });

  it('authenticates by DKIM alone when SPF fails (another relay)', async () => {
    const verdicts = await verifyWithMailauth(await message({ signWith: PRIVATE }), envelope('10.1.2.3'), dns, 'test');
    expect(verdicts).toMatchObject({ spf: 'FAIL', dkim: 'PASS', authenticatedDomain: 'proveedor.pe' });
  });

  it('does not authenticate a signature by another key, from an address SPF does not allow', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const verdicts = await verifyWithMailauth(await message({ signWith: other }), envelope('10.1.2.3'), dns, 'test');
    expect(verdicts.dkim).toBe('FAIL');
    expect(verdicts.authenticatedDomain).toBeNull();
  });

  it('does not take SPF of another envelope domain for the From domain', async () => {
    const verdicts = await verifyWithMailauth(
      await message({ from: 'facturacion@proveedor.pe' }),
      envelope('127.0.0.1', 'rebote@otro.pe'),
      tableResolver({ 'otro.pe': { TXT: ['v=spf1 ip4:127.0.0.1 -all'] } }),
      'test',
    );
    expect(verdicts.spf).toBe('PASS');
    expect(verdicts.authenticatedDomain).toBeNull();
  });

  it('a domain with no records authenticates nothing', async () => {
    const verdicts = await verifyWithMailauth(
      await message({ from: 'a@nadie.pe' }),
      envelope('127.0.0.1', 'a@nadie.pe'),
      dns,
      'test',
    );
    expect(verdicts.authenticatedDomain).toBeNull();
  });
});

describe("SES's receipt verdicts", () => {
  const mail = (from: string, source: string, signatures: string[] = []) => ({
    source,
    commonHeaders: { from: [from] },
    headers: signatures.map((value) => ({ name: 'DKIM-Signature', value })),
  });

  it('DKIM pass counts when every signature is the From domain’s', () => {
    expect(
      verdictsFromSes(
        { spfVerdict: { status: 'FAIL' }, dkimVerdict: { status: 'PASS' }, dmarcVerdict: { status: 'GRAY' } },
        mail('Ana <ana@proveedor.pe>', 'bounce@relay.example', ['v=1; a=rsa-sha256; d=proveedor.pe; s=x; b=abc']),
      ).authenticatedDomain,
    ).toBe('proveedor.pe');
  });

  it('DKIM pass of another domain’s signature does not', () => {
    expect(
      verdictsFromSes(
        { spfVerdict: { status: 'FAIL' }, dkimVerdict: { status: 'PASS' }, dmarcVerdict: { status: 'GRAY' } },
        mail('ana@proveedor.pe', 'x@relay.example', ['v=1; d=relay.example; s=x; b=abc']),
      ).authenticatedDomain,
    ).toBeNull();
  });

  it('SPF pass counts for an aligned envelope sender; DMARC pass counts alone', () => {
    expect(
      verdictsFromSes({ spfVerdict: { status: 'PASS' } }, mail('ana@proveedor.pe', 'rebotes@mail.proveedor.pe'))
        .authenticatedDomain,
    ).toBe('proveedor.pe');
    expect(
      verdictsFromSes({ spfVerdict: { status: 'PASS' } }, mail('ana@proveedor.pe', 'x@otro.pe')).authenticatedDomain,
    ).toBeNull();
    expect(
      verdictsFromSes({ dmarcVerdict: { status: 'PASS' } }, mail('ana@proveedor.pe', 'x@otro.pe')).authenticatedDomain,
    ).toBe('proveedor.pe');
  });
});
