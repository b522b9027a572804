import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, type CspSources } from './csp.js';

/** CloudFront's limit on the Content-Security-Policy value of a response headers policy. */
const CLOUDFRONT_CSP_LIMIT = 1783;

/** What a production stage passes: Cognito, its hosted UI and the documents bucket (the API is same-origin). */
const AWS_SOURCES: CspSources = {
  connect: [
    'https://cognito-idp.us-east-1.amazonaws.com',
    'https://portal-proveedores-prod.auth.us-east-1.amazoncognito.com',
    'https://portal-proveedores-prod-documents-123456789012-us-east-1.s3.us-east-1.amazonaws.com',
  ],
  waf: true,
  chat: false,
};

const LOCAL_SOURCES: CspSources = {
  connect: ['http://127.0.0.1:4701', 'http://127.0.0.1:4705', 'http://127.0.0.1:4703'],
  waf: false,
  chat: false,
};

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

describe('contentSecurityPolicy', () => {
  it('lets a production page reach only its own origin, Cognito, the bucket and AWS WAF', () => {
    // Act
    const policy = directives(contentSecurityPolicy(AWS_SOURCES));

    // Assess
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('script-src')).toEqual(["'self'", 'https://*.awswaf.com']);
    expect(policy.get('style-src')).toEqual(["'self'"]);
    expect(policy.get('connect-src')).toEqual(["'self'", ...AWS_SOURCES.connect, 'https://*.awswaf.com']);
    expect(policy.get('frame-src')).toEqual(["'none'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'self'"]);
    expect(policy.get('form-action')).toEqual(["'self'"]);
    expect(policy.has('upgrade-insecure-requests')).toBe(true);
  });

  it('serves the local stage the same policy, with its http origins and without upgrading requests', () => {
    // Act
    const text = contentSecurityPolicy(LOCAL_SOURCES);
    const policy = directives(text);

    // Assess
    expect(text).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; font-src 'self' data:; img-src 'self' data:; " +
        "connect-src 'self' http://127.0.0.1:4701 http://127.0.0.1:4705 http://127.0.0.1:4703; frame-src 'none'; " +
        "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(policy.has('upgrade-insecure-requests')).toBe(false);
  });

  it('never allows eval or inline scripts, whatever is enabled', () => {
    for (const waf of [false, true]) {
      for (const chat of [false, true]) {
        // Act
        const policy = directives(contentSecurityPolicy({ ...AWS_SOURCES, waf, chat }));

        // Assess
        expect(policy.get('script-src')).not.toContain("'unsafe-eval'");
        expect(policy.get('script-src')).not.toContain("'unsafe-inline'");
        expect([...policy.values()].flat()).not.toContain("'unsafe-eval'");
      }
    }
  });

  it('names AWS WAF and Dialogflow only for a stage that enables them', () => {
    // Act
    const plain = contentSecurityPolicy({ ...AWS_SOURCES, waf: false, chat: false });
    const chat = directives(contentSecurityPolicy({ ...AWS_SOURCES, waf: false, chat: true }));

    // Assess
    expect(plain).not.toMatch(/awswaf|gstatic|googleapis|unsafe-inline/);
    expect(chat.get('script-src')).toEqual(["'self'", 'https://www.gstatic.com']);
    expect(chat.get('style-src')).toContain("'unsafe-inline'");
    expect(chat.get('connect-src')).toContain('https://*.googleapis.com');
    expect(chat.get('font-src')).toContain('https://fonts.gstatic.com');
    expect([...chat.values()].flat().join(' ')).not.toContain('awswaf');
  });

  it('fits CloudFront’s limit with every source of an AWS stage enabled', () => {
    // Prepare: a long custom hosted-UI domain and a developer origin on top of the production list
    const sources: CspSources = {
      connect: [...AWS_SOURCES.connect, 'https://auth.proveedores.corporacion-andina.com.pe', 'https://localhost:5173'],
      waf: true,
      chat: true,
    };

    // Act
    const policy = contentSecurityPolicy(sources);

    // Assess
    expect(policy.length).toBeLessThanOrEqual(CLOUDFRONT_CSP_LIMIT);
    expect(policy).not.toMatch(/[\r\n"]/);
  });

  it('passes CDK tokens through untouched', () => {
    // Prepare: how an unresolved bucket domain name looks at synth time
    const token = '${Token[TOKEN.1234]}';

    // Act
    const policy = contentSecurityPolicy({ connect: [`https://${token}`], waf: false, chat: false });

    // Assess
    expect(directives(policy).get('connect-src')).toEqual(["'self'", `https://${token}`]);
  });
});
