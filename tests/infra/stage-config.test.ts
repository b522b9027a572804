import { describe, expect, it } from 'vitest';
import { stageNames } from '../../infra/lib/naming.js';
import { fromHeader, resolveStageConfig } from '../../infra/lib/stage-config.js';

const context = (values: Record<string, unknown>) => (key: string) => values[key];
const resolve = (values: Record<string, unknown>) => resolveStageConfig(context(values));

const CERTIFICATE_ARN = 'arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b';

describe('stage configuration: regions, domain and limits', () => {
  it('puts dev in us-east-1 and prod in São Paulo, and lets -c region move a stage', () => {
    expect(resolve({}).region).toBe('us-east-1');
    expect(resolve({ stage: 'prod' }).region).toBe('sa-east-1');
    expect(resolve({ region: 'us-west-2' }).region).toBe('us-west-2');
    expect(() => resolve({ region: 'Lima' })).toThrow(/region: an AWS region code/);
  });

  it('keeps prod stricter than dev: longer logs, enforced threat protection, Cognito mail through SES', () => {
    expect(resolve({})).toMatchObject({
      logRetentionDays: 30,
      threatProtection: 'AUDIT',
      cognitoEmail: 'COGNITO',
      wafRateLimit: 1000,
      apiThrottle: { rateLimit: 100, burstLimit: 200 },
      alarmEmails: [],
    });
    expect(resolve({ stage: 'prod' })).toMatchObject({
      logRetentionDays: 365,
      threatProtection: 'ENFORCED',
      cognitoEmail: 'SES',
      wafRateLimit: 1000,
      apiThrottle: { rateLimit: 100, burstLimit: 200 },
    });
  });

  it('serves the site at the custom domain, with its us-east-1 certificate', () => {
    const config = resolve({ stage: 'prod', domainName: 'proveedores.grupo.pe', certificateArn: CERTIFICATE_ARN });
    expect(config).toMatchObject({
      domainName: 'proveedores.grupo.pe',
      certificateArn: CERTIFICATE_ARN,
      webOrigin: 'https://proveedores.grupo.pe',
    });
    // An explicit webOrigin still wins (a developer's Vite server against a stage with a domain).
    const withOrigin = resolve({
      domainName: 'proveedores.grupo.pe',
      certificateArn: CERTIFICATE_ARN,
      webOrigin: 'http://localhost:5173',
    });
    expect(withOrigin.webOrigin).toBe('http://localhost:5173');
  });

  it('refuses a domain without certificate, a certificate without domain, and one outside us-east-1', () => {
    expect(() => resolve({ domainName: 'proveedores.grupo.pe' })).toThrow(/certificateArn: domainName .* needs an ACM/);
    expect(() => resolve({ certificateArn: CERTIFICATE_ARN })).toThrow(/certificateArn: given without domainName/);
    expect(() =>
      resolve({
        domainName: 'proveedores.grupo.pe',
        certificateArn: CERTIFICATE_ARN.replace('us-east-1', 'sa-east-1'),
      }),
    ).toThrow(/certificateArn: an ACM certificate ARN of us-east-1/);
    expect(() => resolve({ domainName: 'https://proveedores.grupo.pe', certificateArn: CERTIFICATE_ARN })).toThrow(
      /domainName: a lowercase host name/,
    );
  });

  it('reads numbers and JSON from -c and refuses values AWS would refuse', () => {
    const config = resolve({
      logRetentionDays: '731',
      wafRateLimit: '300',
      apiThrottle: '{"rateLimit":50,"burstLimit":80}',
      alarmEmails: '["operaciones@grupo.pe"]',
      threatProtection: 'OFF',
    });
    expect(config).toMatchObject({
      logRetentionDays: 731,
      wafRateLimit: 300,
      apiThrottle: { rateLimit: 50, burstLimit: 80 },
      alarmEmails: ['operaciones@grupo.pe'],
      threatProtection: 'OFF',
    });
    expect(() => resolve({ logRetentionDays: '45' })).toThrow(/logRetentionDays: one of CloudWatch's periods/);
    expect(() => resolve({ wafRateLimit: '5' })).toThrow(/wafRateLimit: AWS WAF accepts 10/);
    expect(() => resolve({ apiThrottle: '{"rateLimit":100,"burstLimit":10}' })).toThrow(/burstLimit must be at least/);
    expect(() => resolve({ threatProtection: 'ON' })).toThrow(/threatProtection: 'ENFORCED', 'AUDIT' or 'OFF'/);
    expect(() => resolve({ alarmEmails: '["operaciones"]' })).toThrow(/alarmEmails/);
  });
});

describe('stage configuration: e-mail sender', () => {
  it('sends from the example domain until the stage names its own', () => {
    expect(resolve({}).emailSender).toEqual({
      address: 'no-responder@proveedores.example.com',
      name: 'Portal de Proveedores',
    });
  });

  it('reads the sender from -c as JSON, with the portal name by default and an optional hosted zone', () => {
    const { emailSender } = resolve({
      stage: 'prod',
      emailSender: '{"address":"no-responder@grupo.pe","hostedZoneId":"Z0123456789ABCDEFGHIJ"}',
    });
    expect(emailSender).toEqual({
      address: 'no-responder@grupo.pe',
      name: 'Portal de Proveedores',
      hostedZoneId: 'Z0123456789ABCDEFGHIJ',
    });
    expect(fromHeader(emailSender)).toBe('Portal de Proveedores <no-responder@grupo.pe>');
  });

  it('refuses a sender that is no address, a name that would break the From header, and unknown keys', () => {
    expect(() => resolve({ emailSender: { address: 'grupo.pe' } })).toThrow(/emailSender\.address/);
    expect(() => resolve({ emailSender: { address: 'a@grupo.pe', name: 'Portal <x>' } })).toThrow(/emailSender\.name/);
    expect(() => resolve({ emailSender: { address: 'a@grupo.pe', hostedZoneId: 'grupo.pe' } })).toThrow(
      /emailSender\.hostedZoneId/,
    );
    expect(() => resolve({ emailSender: { address: 'a@grupo.pe', domain: 'grupo.pe' } })).toThrow(/domain/);
  });
});

describe('physical names', () => {
  it('carry the stage, so two stages share an account, and follow the services’ rules', () => {
    const dev = stageNames('dev');
    const prod = stageNames('prod');
    for (const key of Object.keys(dev) as (keyof typeof dev)[]) expect(dev[key]).not.toBe(prod[key]);
    expect(prod.wafLogGroup).toMatch(/^aws-waf-logs-/);
    expect(prod.dashboard).toBe('Portal-prod');
    expect(resolve({ stage: 'prod' }).domainPrefix).toBe(prod.hostedUiDomainPrefix);
  });
});
