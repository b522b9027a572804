import { describe, expect, test } from 'vitest';
import { CLIENT_MESSAGES, HEADERS } from '@portal/shared';
import type { Page, Request, Route } from 'playwright-core';
import { demoUser, stage } from '../support/stage.js';
import { TEXT, inBrowser, openLogin, servedAs, settledInvoices, signIn } from '../support/web.js';

/** A web ACL's application integration URL as AWS gives it (with its trailing slash). */
const INTEGRATION_URL = 'https://0a1b2c3d4e5f.edge.sdk.awswaf.com/0a1b2c3d4e5f/6a7b8c9d0e1f/';
const CHALLENGE_SCRIPT = `${INTEGRATION_URL}challenge.js`;
const TOKEN = 'e2e-waf-token';

/** A stage behind AWS WAF; `challenge` answers for WAF's challenge.js (no network). */
async function behindWaf(page: Page, challenge: (route: Route) => Promise<void>) {
  await servedAs(page, (config) => ({ ...config, waf: { integrationUrl: INTEGRATION_URL } }));
  await page.route(CHALLENGE_SCRIPT, challenge);
}

/** The API calls the page sends (CORS preflights aside). */
function apiCalls(page: Page): Request[] {
  const api = new URL(stage().apiUrl).origin;
  const calls: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).origin === api && request.method() !== 'OPTIONS') calls.push(request);
  });
  return calls;
}

describe('app attestation with AWS WAF (spec §1)', () => {
  test('behind AWS WAF, every API call carries the token challenge.js hands out', async () => {
    await inBrowser('waf-token', async (page) => {
      // Prepare: WAF's script stood in for by one that hands out a fixed token
      let loads = 0;
      await behindWaf(page, async (route) => {
        loads += 1;
        await route.fulfill({
          contentType: 'text/javascript',
          body: `window.AwsWafIntegration = { getToken: () => Promise.resolve('${TOKEN}'), hasToken: () => true };`,
        });
      });
      const calls = apiCalls(page);
      const supplier = demoUser('SUPPLIER');

      // Act
      await openLogin(page);
      await signIn(page, supplier.username, supplier.password);
      await settledInvoices(page);

      // Assess
      expect(calls.length).toBeGreaterThan(0);
      for (const call of calls) expect(await call.headerValue(HEADERS.wafToken)).toBe(TOKEN);
      expect(loads).toBe(1);
      await page.getByTestId('invoices-error').waitFor({ state: 'detached' });
    });
  });

  test('when challenge.js cannot load, the login still shows and API calls fail with a message', async () => {
    await inBrowser('waf-unavailable', async (page) => {
      // Prepare: WAF's script cannot be fetched
      await behindWaf(page, (route) => route.abort('failed'));
      const calls = apiCalls(page);
      const supplier = demoUser('SUPPLIER');

      // Act
      await openLogin(page);
      await signIn(page, supplier.username, supplier.password);

      // Assess: the session user cannot be fetched, and nothing reached the API without a token
      await page.getByText(CLIENT_MESSAGES.headerSession).waitFor();
      await page.getByRole('heading', { name: TEXT.invoicesTitle }).waitFor({ state: 'detached' });
      expect(calls).toHaveLength(0);
    });
  });
});
