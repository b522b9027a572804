import { describe, expect, test } from 'vitest';
import { INVOICE_STATUS_LABELS, formatDate, formatMoney, parseTaxIds } from '@portal/shared';
import { buildWorld } from '../support/tenant.js';
import { documentScreen, seriousA11yViolations } from '../support/a11y.js';
import { HEADER_TEXT, allInvoicesOf, askAssistant, invoicesOf, openChat, signedIn } from '../support/header.js';
import { demoUser } from '../support/stage.js';
import { inBrowser, servedAs } from '../support/web.js';

const world = buildWorld();
const MESSENGER_SCRIPT = /df-messenger\.js$/;

describe('chat assistant', () => {
  test("answers the real status of one of the supplier's invoices and a how-to question", async () => {
    // Prepare: an invoice of the supplier, and its status as the API reports it now
    const supplier = demoUser('SUPPLIER');
    const seeded = world.invoices.find(
      (invoice) => invoice.supplierId === parseTaxIds(supplier.taxId)[0] && invoice.type === 'FACTURA',
    )!;
    const [invoice] = (await invoicesOf('SUPPLIER', { search: seeded.id })).filter((found) => found.id === seeded.id);
    expect(invoice).toBeDefined();

    await inBrowser('chat-assistant', async (page) => {
      await signedIn(page, 'SUPPLIER');
      let messengerRequested = false;
      page.on('request', (request) => {
        if (MESSENGER_SCRIPT.test(request.url())) messengerRequested = true;
      });

      // Act
      await openChat(page);
      const statusAnswer = await askAssistant(page, `¿En qué estado está la ${invoice!.id}?`);

      // Assess: the status, the amount and the issue date of that invoice
      expect(statusAnswer).toContain(invoice!.id);
      expect(statusAnswer).toContain(`estado "${INVOICE_STATUS_LABELS[invoice!.status]}"`);
      expect(statusAnswer).toContain(formatMoney(invoice!.amount, invoice!.currency));
      expect(statusAnswer).toContain(formatDate(invoice!.issuedAt));

      // Act
      const howTo = await askAssistant(page, '¿Cómo cargo un XML?');

      // Assess
      expect(howTo).toContain('Cargar XML');
      expect(await seriousA11yViolations(page)).toEqual([]);
      await documentScreen(page, 'chat-assistant');
      // Without an agent in /config.json, Google's messenger is never loaded.
      expect(messengerRequested).toBe(false);

      // Act: Escape closes the panel and gives the focus back to the launcher
      await page.keyboard.press('Escape');
      const launcher = page.getByRole('button', { name: HEADER_TEXT.openChat });
      await launcher.waitFor();
      await expect
        .poll(() => launcher.evaluate((element) => element === (globalThis as any).document.activeElement))
        .toBe(true);
    });
  });

  test("counts the supplier's own facturas still to be paid, by status", async () => {
    // Prepare: the supplier's facturas not yet paid nor rejected, read page by page from the list
    const open = ['PENDING', 'COMPLETED', 'ACCEPTED', 'SCHEDULED'] as const;
    const facturas = await allInvoicesOf('SUPPLIER', { invoiceStatus: open.join(','), invoiceType: 'FACTURA' });
    expect(facturas.length).toBeGreaterThan(1);

    await inBrowser('chat-count', async (page) => {
      await signedIn(page, 'SUPPLIER');
      await openChat(page);

      // Act
      const answer = await askAssistant(page, '¿Cuántas facturas tengo pendientes?');

      // Assess: the total, and each status with its count
      expect(answer).toContain(`Tienes ${facturas.length} facturas por cobrar`);
      for (const status of open) {
        const inStatus = facturas.filter((invoice) => invoice.status === status).length;
        if (inStatus > 0) expect(answer).toContain(`${INVOICE_STATUS_LABELS[status]}: ${inStatus}`);
      }
      expect(answer).not.toContain('No entendí');
    });
  });

  test('tells the supplier when it gets paid, with the scheduled dates', async () => {
    // Prepare: what the API says is scheduled or accepted for the supplier
    const due = await invoicesOf('SUPPLIER', { invoiceStatus: 'SCHEDULED,ACCEPTED', limit: 20 });
    const scheduled = due.filter((invoice) => invoice.status === 'SCHEDULED');
    expect(scheduled.length).toBeGreaterThan(0);

    await inBrowser('chat-payments', async (page) => {
      await signedIn(page, 'SUPPLIER');
      await openChat(page);

      // Act
      const answer = await askAssistant(page, '¿Cuándo me pagan?');

      // Assess
      for (const invoice of scheduled) {
        expect(answer).toContain(
          `${invoice.id} por ${formatMoney(invoice.amount, invoice.currency)}: el ${formatDate(invoice.scheduledAt)}`,
        );
      }
    });
  });

  test('fits a 375 px screen', async () => {
    await inBrowser('chat-mobile', async (page) => {
      await page.setViewportSize({ width: 375, height: 812 });
      await signedIn(page, 'SUPPLIER');

      const panel = await openChat(page);
      const box = (await panel.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(375);
      expect(box.y + box.height).toBeLessThanOrEqual(812);
      expect(await askAssistant(page, 'olvidé mi contraseña')).toContain('¿Olvidaste tu contraseña?');
    });
  });

  test('embeds the configured Dialogflow CX agent instead, with its script loaded only then', async () => {
    await inBrowser('chat-dialogflow', async (page) => {
      // Prepare: a stage whose /config.json names an agent (and whose CSP lets the messenger in); Google's
      // script is stood in for (no network)
      await servedAs(page, (config) => ({ ...config, chat: { projectId: 'portal-demo', agentId: 'agente-know-how' } }));
      await page.route(MESSENGER_SCRIPT, (route) =>
        route.fulfill({
          contentType: 'text/javascript',
          body: "customElements.define('df-messenger', class extends HTMLElement {}); customElements.define('df-messenger-chat-bubble', class extends HTMLElement {});",
        }),
      );
      await page.route(/df-messenger-default\.css$/, (route) => route.fulfill({ contentType: 'text/css', body: '' }));

      // Act
      await signedIn(page, 'SUPPLIER');

      // Assess
      const messenger = page.locator('df-messenger');
      await messenger.waitFor({ state: 'attached' });
      expect(await messenger.getAttribute('project-id')).toBe('portal-demo');
      expect(await messenger.getAttribute('agent-id')).toBe('agente-know-how');
      expect(await messenger.getAttribute('location')).toBe('us-central1');
      expect(await messenger.getAttribute('language-code')).toBe('es');
      expect(await messenger.getAttribute('max-query-length')).toBe('-1');
      expect(await page.locator('df-messenger-chat-bubble').getAttribute('chat-title')).toBe(HEADER_TEXT.chatTitle);
      await expect
        .poll(() => page.evaluate(() => Boolean((globalThis as any).customElements.get('df-messenger'))))
        .toBe(true);
      expect(await page.getByRole('button', { name: HEADER_TEXT.openChat }).count()).toBe(0);
    });
  });
});
