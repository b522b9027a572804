import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { EMPLOYEES, OFFICE_LOCATIONS } from '../support/tenant.js';
import { DETAIL_TEXT, REVIEW_COMPANY, detailPanel, invoiceRow, invoiceToReview } from '../support/invoice-detail.js';
import { ADMIN_TEXT, settledUsers, userRow } from '../support/admin.js';
import { INVOICES_TEXT, freshCorrelative, ublFactura } from '../support/invoices.js';
import { arrowTo, expectFocusOn, focusOf, regionsOf, tabTo } from '../support/keyboard.js';
import { demoUser } from '../support/stage.js';
import { TEXT, inBrowser, openLogin, settledInvoices } from '../support/web.js';

/**
 * Keyboard access: the main journeys with the keyboard alone. No click, no fill: Tab and Shift+Tab move the focus,
 * Enter, Space, Escape and the arrows act, and letters are typed where the focus is. After each step the test
 * asserts where the focus is (role and accessible name) and that it shows.
 */
const EMPLOYEE = EMPLOYEES[REVIEW_COMPANY.taxId]![1]!;
const OFFICE = OFFICE_LOCATIONS[REVIEW_COMPANY.taxId]![1]!;

/** The option the open list highlights (its aria-activedescendant), as a screen reader announces it. */
async function highlightedOption(page: Page): Promise<string> {
  return page.evaluate(() => {
    const doc = (
      globalThis as unknown as {
        document: {
          activeElement: { getAttribute(name: string): string | null } | null;
          getElementById(id: string): { textContent: string | null } | null;
        };
      }
    ).document;
    const id = doc.activeElement?.getAttribute('aria-activedescendant');
    return id ? (doc.getElementById(id)?.textContent ?? '').trim() : '';
  });
}

/** Walks an open list with the down arrow until `option` is highlighted, and chooses it with Enter. */
async function chooseWithArrows(page: Page, option: RegExp): Promise<void> {
  const seen: string[] = [];
  for (let press = 0; press < 30; press += 1) {
    await page.keyboard.press('ArrowDown');
    const highlighted = await highlightedOption(page);
    seen.push(highlighted);
    if (option.test(highlighted)) {
      await page.keyboard.press('Enter');
      return;
    }
  }
  throw new Error(`Ninguna opción ${String(option)} entre: ${seen.join(' | ')}`);
}

/** A staff member signs in through the corporate identity provider with the keyboard. */
async function corporateSignInByKeyboard(page: Page, account: { username: string; password: string }) {
  await openLogin(page);
  await tabTo(page, { role: 'button', name: TEXT.corporate });
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: TEXT.corporateTitle }).waitFor();
  // The identity provider's page is not the app's: only where the focus goes is asserted there.
  await tabTo(page, { role: 'textbox', name: TEXT.corporateEmail }, { anyIndicator: true });
  await page.keyboard.type(account.username);
  await tabTo(page, { role: 'textbox', name: TEXT.password }, { anyIndicator: true });
  await page.keyboard.type(account.password);
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.pathname === '/');
}

/** The invoice number's link in the list: it opens the invoice's detail. */
const detailLink = (number: string) => ({ role: 'link', name: `Ver el detalle del comprobante ${number}` });

describe('keyboard-only journeys', () => {
  test('a keyboard-only manager opens an invoice, completes its review data and approves it', async () => {
    // Prepare
    const toReview = await invoiceToReview('SERVICE_SHEET');
    const { number } = toReview;

    await inBrowser('keyboard-manager-approve', async (page) => {
      await corporateSignInByKeyboard(page, demoUser('MANAGER'));
      await settledInvoices(page);
      await invoiceRow(page, number).waitFor();

      // Act: Tab from the top of the page into the invoices table (a grid: one Tab stop), then down its first column
      const toTable = await tabTo(page, { role: 'button', name: 'N° de comprobante' }, { max: 60 });
      await arrowTo(page, 'ArrowDown', detailLink(number));
      await page.keyboard.press('Enter');

      // Assess: the header, the menu and the screen, in that order; the sidebar shows the invoice
      expect(regionsOf(toTable)).toEqual(['banner', 'navigation', 'main']);
      const panel = detailPanel(page, number);
      await panel.waitFor();

      // Act: on to the sidebar's 'Completar datos'
      const toPanel = await tabTo(page, { role: 'button', name: DETAIL_TEXT.complete }, { max: 60 });
      await page.keyboard.press('Enter');

      // Assess: the sidebar comes after the screen it belongs to; the form opens
      expect(regionsOf(toPanel).at(-1)).toBe('complementary');
      await panel.getByTestId('invoice-review-form').waitFor();
      // Assess: the form's first field has the focus, painted and in view
      expect((await expectFocusOn(page, { role: 'button', name: /^Tipo de operación/ })).visible).toBe(true);

      // Act: the review data, field after field, lists opened with Enter and walked with the arrows
      await page.keyboard.press('Enter');
      await chooseWithArrows(page, /^Servicios/);
      await expectFocusOn(page, { role: 'button', name: /^Tipo de operación.*Servicios/ });
      await tabTo(page, { role: 'combobox', name: DETAIL_TEXT.responsible });
      const typed = EMPLOYEE.fullName.split(' ')[0]!;
      await page.keyboard.type(typed);
      // The responsibles are searched as the name is typed, one search per letter: the list is the whole name's once
      // every option holds it (an earlier letter's answer also lists the match, beside others, until it is replaced).
      await expect
        .poll(async () => {
          const options = await page.getByRole('option').allTextContents();
          return options.length > 0 && options.every((option) => option.toLowerCase().includes(typed.toLowerCase()));
        })
        .toBe(true);
      await page.getByRole('option', { name: new RegExp(EMPLOYEE.fullName) }).waitFor();
      await chooseWithArrows(page, new RegExp(EMPLOYEE.fullName));
      await tabTo(page, { role: 'button', name: /^Oficina/ });
      await page.keyboard.press('Space');
      await chooseWithArrows(page, new RegExp(`^${OFFICE.office}`));
      await tabTo(page, { role: 'textbox', name: DETAIL_TEXT.purchaseOrders });
      await page.keyboard.type(toReview.purchaseOrder!);
      await page.keyboard.press('Enter');
      // The order's suggested conformities open above the HES field and push it down when their search answers: the
      // walk reads on once they are there, as a user does (else the field can leave the panel's view after its focus).
      const suggestions = panel.getByTestId('conformity-suggestions');
      await suggestions.waitFor();
      await expect.poll(() => suggestions.getByText(DETAIL_TEXT.suggestionsLoading).count()).toBe(0);
      await tabTo(page, { role: 'textbox', name: DETAIL_TEXT.serviceSheets });
      await page.keyboard.type(toReview.document!.documentId);
      await page.keyboard.press('Enter');
      await panel.getByTestId('review-documents-total').waitFor();
      await tabTo(page, { role: 'button', name: DETAIL_TEXT.save });
      await page.keyboard.press('Enter');

      // Assess: saved; the focus returns to the top of the sidebar, from where 'Aprobar' is the next stop
      await page.getByText(DETAIL_TEXT.saved).waitFor();
      await detailPanel(page, number, 'COMPLETED').waitFor();
      expect((await focusOf(page)).region).toBe('complementary');

      // Act: 'Aprobar' opens the decision dialog
      await tabTo(page, { role: 'button', name: DETAIL_TEXT.approve });
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog');
      await dialog.getByText(number, { exact: false }).first().waitFor();

      // Assess: the focus is inside the dialog, and Tab and Shift+Tab keep it there
      await expect.poll(async () => (await focusOf(page)).inDialog).toBe(true);
      for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
        await page.keyboard.press(key);
        const focus = await focusOf(page);
        expect(focus.inDialog, `${key}: ${focus.role} "${focus.name}"`).toBe(true);
        expect(focus.visible).toBe(true);
      }

      // Act: Escape closes it
      await page.keyboard.press('Escape');

      // Assess: closed, nothing decided, the focus back on the button that opened it
      await dialog.waitFor({ state: 'detached' });
      await expectFocusOn(page, { role: 'button', name: DETAIL_TEXT.approve });
      expect(await panel.getAttribute('data-status')).toBe('COMPLETED');

      // Act: open it again, and confirm
      await page.keyboard.press('Enter');
      await dialog.getByText(number, { exact: false }).first().waitFor();
      const confirm = await tabTo(page, { role: 'button', name: DETAIL_TEXT.approve }, { max: 10 });
      expect(confirm.every((step) => step.inDialog)).toBe(true);
      await page.keyboard.press('Enter');

      // Assess: approved (the message of spec §9, the row 'Aceptado'), the focus back at the top of the sidebar
      await page.getByText(DETAIL_TEXT.approved).waitFor();
      await invoiceRow(page, number).getByText('Aceptado', { exact: true }).waitFor();
      await detailPanel(page, number, 'ACCEPTED').waitFor();
      expect((await focusOf(page)).region).toBe('complementary');
    });
  });

  test('a keyboard-only supplier signs in, uploads an XML invoice and opens an invoice and its history', async () => {
    // Prepare
    const supplier = demoUser('SUPPLIER');
    const factura = ublFactura(freshCorrelative());

    await inBrowser('keyboard-supplier', async (page) => {
      // Listened to from the start: Playwright intercepts the chooser only once a listener exists, and a key press
      // opens it at once.
      page.on('filechooser', (chooser) => {
        void chooser.setFiles({ name: `${factura.invoiceId}.xml`, mimeType: 'application/xml', buffer: factura.bytes });
      });
      // Act: the login form, field by field
      await openLogin(page);
      await tabTo(page, { role: 'textbox', name: TEXT.email });
      await page.keyboard.type(supplier.username);
      await tabTo(page, { role: 'textbox', name: TEXT.password });
      await page.keyboard.type(supplier.password);
      await tabTo(page, { role: 'button', name: TEXT.signIn });
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.pathname === '/');
      await settledInvoices(page);

      // Act: 'Cargar XML' opens the system's file chooser from the keyboard, where the file is picked
      await tabTo(page, { role: 'button', name: INVOICES_TEXT.uploadXml });
      await page.keyboard.press('Enter');

      // Assess: the message dialog holds the focus; Escape closes it and the focus is back on 'Cargar XML'
      const received = page.getByRole('dialog', { name: INVOICES_TEXT.received });
      await received.waitFor();
      await expect.poll(async () => (await focusOf(page)).inDialog).toBe(true);
      // A native modal <dialog>: Tab may leave for the browser's own controls ('none'), never for the page behind.
      const around = await tabTo(page, { role: 'button', name: INVOICES_TEXT.understood }, { max: 4 });
      expect(around.every((focus) => focus.inDialog || focus.role === 'none')).toBe(true);
      await page.keyboard.press('Escape');
      await received.waitFor({ state: 'detached' });
      await expectFocusOn(page, { role: 'button', name: INVOICES_TEXT.uploadXml });

      // Act: into the table, down to the first invoice, and open it
      await tabTo(page, { role: 'button', name: 'N° de comprobante' }, { max: 60 });
      const first = await arrowTo(page, 'ArrowDown', { role: 'link', name: /^Ver el detalle del comprobante / });
      const number = first.name.replace('Ver el detalle del comprobante ', '');
      await page.keyboard.press('Enter');
      const panel = detailPanel(page, number);
      await panel.waitFor();

      // Act: its history, a dialog
      await tabTo(page, { role: 'button', name: DETAIL_TEXT.history }, { max: 60 });
      await page.keyboard.press('Enter');
      const history = page.getByTestId('invoice-trail');
      await history.waitFor();

      // Assess: the focus inside; Escape returns it to 'Historial'
      await expect.poll(async () => (await focusOf(page)).inDialog).toBe(true);
      await page.keyboard.press('Escape');
      await history.waitFor({ state: 'detached' });
      await expectFocusOn(page, { role: 'button', name: DETAIL_TEXT.history });
    });
  });

  test('a keyboard-only administrator reaches user administration and searches a supplier', async () => {
    const supplier = demoUser('SUPPLIER');

    await inBrowser('keyboard-admin', async (page) => {
      await corporateSignInByKeyboard(page, demoUser('ADMIN'));
      // The landing screen settled first: a Tab pressed while it renders reaches whatever it is about to replace.
      await settledInvoices(page);

      // Act: the menu's 'Usuarios proveedores'
      const toMenu = await tabTo(page, { role: 'link', name: ADMIN_TEXT.suppliersNav }, { max: 40 });
      await page.keyboard.press('Enter');

      // Assess: reached through the header and the menu
      expect(regionsOf(toMenu)).toEqual(['banner', 'navigation']);
      await page.getByRole('heading', { name: ADMIN_TEXT.suppliersTitle, level: 1 }).waitFor();
      await settledUsers(page);

      // Act: on to the search, and type a RUC
      const toSearch = await tabTo(page, { role: 'searchbox', name: ADMIN_TEXT.search }, { max: 40 });
      await page.keyboard.type(supplier.taxId!);

      // Assess: the search is in the screen, after the menu; the table shows that supplier's accounts
      expect(toSearch.at(-1)!.region).toBe('main');
      await userRow(page, supplier.username).waitFor();
    });
  });
});
