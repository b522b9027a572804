import { describe, expect, it, vi } from 'vitest';
import { HEADERS } from '@portal/shared';
import { WafUnavailableError, apiFetch, challengeScriptUrl, type Fetch, type WafIntegration } from './waf';

const INTEGRATION_URL = 'https://0123abcd4567.edge.sdk.awswaf.com/0123abcd4567/89ef01234567/';
const WAF = { integrationUrl: INTEGRATION_URL };

function recordingFetch() {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch: Fetch = (url, init) => {
    calls.push({ url, init });
    return Promise.resolve(new Response('{}', { status: 200 }));
  };
  return { fetch, calls };
}

const integrationWith = (token: string): WafIntegration => ({ getToken: () => Promise.resolve(token) });

describe('challengeScriptUrl', () => {
  it('joins challenge.js to the integration URL with or without its trailing slash', () => {
    // Act / Assess
    expect(challengeScriptUrl(INTEGRATION_URL)).toBe(`${INTEGRATION_URL}challenge.js`);
    expect(challengeScriptUrl(INTEGRATION_URL.slice(0, -1))).toBe(`${INTEGRATION_URL}challenge.js`);
  });
});

describe('apiFetch', () => {
  it('uses the plain fetch, and never loads the challenge, on a stage without AWS WAF', async () => {
    // Prepare
    const { fetch, calls } = recordingFetch();
    const integration = vi.fn(() => Promise.resolve(integrationWith('token')));

    // Act
    const selected = apiFetch(null, { fetch, integration });
    await selected('https://api.test/invoices', { method: 'GET' });

    // Assess
    expect(selected).toBe(fetch);
    expect(integration).not.toHaveBeenCalled();
    expect(new Headers(calls[0]?.init.headers).has(HEADERS.wafToken)).toBe(false);
  });

  it('sends the WAF token beside the call’s own headers on a stage behind AWS WAF', async () => {
    // Prepare
    const { fetch, calls } = recordingFetch();
    const integration = vi.fn(() => Promise.resolve(integrationWith('waf-token-1')));

    // Act
    await apiFetch(WAF, { fetch, integration })('https://portal.test/api/invoices', {
      method: 'POST',
      headers: new Headers({ authorization: 'Bearer id-token', 'content-type': 'application/json' }),
      body: '{}',
    });

    // Assess
    expect(integration).toHaveBeenCalledWith(INTEGRATION_URL);
    const sent = calls[0]!;
    expect(sent.url).toBe('https://portal.test/api/invoices');
    expect(sent.init.method).toBe('POST');
    expect(sent.init.body).toBe('{}');
    const headers = new Headers(sent.init.headers);
    expect(headers.get(HEADERS.wafToken)).toBe('waf-token-1');
    expect(headers.get('authorization')).toBe('Bearer id-token');
  });

  it('fails the call without sending it when challenge.js could not be loaded', async () => {
    // Prepare
    const { fetch, calls } = recordingFetch();
    const integration = () => Promise.reject(new WafUnavailableError('No se pudo cargar challenge.js de AWS WAF'));

    // Act
    const call = apiFetch(WAF, { fetch, integration })('https://portal.test/api/invoices', {});

    // Assess
    await expect(call).rejects.toBeInstanceOf(WafUnavailableError);
    expect(calls).toHaveLength(0);
  });

  it('fails the call without sending it when WAF hands out no token', async () => {
    // Prepare
    const { fetch, calls } = recordingFetch();

    // Act
    const call = apiFetch(WAF, { fetch, integration: () => Promise.resolve(integrationWith('')) })(
      'https://portal.test/api/invoices',
      {},
    );

    // Assess
    await expect(call).rejects.toBeInstanceOf(WafUnavailableError);
    expect(calls).toHaveLength(0);
  });

  it('gives up waiting for a challenge that never ends when the call’s signal aborts', async () => {
    // Prepare: a script that neither loads nor fails
    const { fetch, calls } = recordingFetch();
    const timeout = new AbortController();
    const call = apiFetch(WAF, { fetch, integration: () => new Promise<WafIntegration>(() => undefined) })(
      'https://portal.test/api/invoices',
      { signal: timeout.signal },
    );

    // Act
    timeout.abort(new DOMException('Tiempo agotado', 'TimeoutError'));

    // Assess
    await expect(call).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(calls).toHaveLength(0);
  });
});
