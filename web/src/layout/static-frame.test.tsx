import { readFileSync } from 'node:fs';
import path from 'node:path';
import { screen, waitFor } from '@testing-library/react';
import { http } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEST_CONFIG, mockServer } from '../mock/component-setup';
import { renderApp } from '../mock/render-app';
import { messages } from '../messages';
import { invoicesMessages } from '../pages/invoices/messages';
import { AUDIENCE_KEY } from '../session/audience';
import { STATIC_FRAME_ID } from './static-frame';

// index.html's frame (web/frame/, docs/web-performance.md): what it says, which one a page shows, and how the app
// takes its place.

// vitest runs from the repository's root (jsdom's import.meta.url is no file address).
const INDEX_HTML = readFileSync(path.resolve('web/index.html'), 'utf8');
const FRAME_SCRIPT = readFileSync(path.resolve('web/frame/frame.js'), 'utf8');
const FRAME_STYLES = readFileSync(path.resolve('web/frame/frame.css'), 'utf8');

/** index.html's frame, as the browser parses it. */
function frameFromIndex(): HTMLElement {
  const parsed = new DOMParser().parseFromString(INDEX_HTML, 'text/html');
  const frame = parsed.getElementById(STATIC_FRAME_ID);
  if (!frame) throw new Error('index.html has no frame');
  return document.importNode(frame, true);
}

const text = (element: Element | null | undefined) => element?.textContent?.replace(/\s+/g, ' ').trim();
const frameShown = () => document.getElementById(STATIC_FRAME_ID) !== null;

/** The frame frame.js picks for `path` with the browser's storage as it is. */
function frameFor(path: string): string | null {
  window.history.replaceState(null, '', path);
  new Function(FRAME_SCRIPT)();
  return document.documentElement.getAttribute('data-portal-frame');
}

/** The audience whose title frame.js has the frame show, with the browser's storage as it is. */
function audienceFor(path: string): string | null {
  frameFor(path);
  return document.documentElement.getAttribute('data-portal-frame-audience');
}

/** The titles of the frame's invoices screen that frame.css leaves shown, for the page as frame.js marked it. */
function shownTitles(): (string | undefined)[] {
  const style = document.createElement('style');
  style.textContent = FRAME_STYLES;
  const frame = frameFromIndex();
  document.head.append(style);
  document.body.prepend(frame);
  try {
    return [...frame.querySelectorAll('h1')].filter((title) => getComputedStyle(title).display !== 'none').map(text);
  } finally {
    style.remove();
    frame.remove();
  }
}

afterEach(() => {
  document.getElementById(STATIC_FRAME_ID)?.remove();
  document.documentElement.removeAttribute('data-portal-frame');
  document.documentElement.removeAttribute('data-portal-frame-audience');
});

describe("index.html's frame", () => {
  it('says what the app says: the product, the invoices screen and its loading state, in Spanish', () => {
    const frame = frameFromIndex();
    expect(text(frame.querySelector('.portal-frame__name'))).toBe(messages.app.title);
    expect(text(frame.querySelector('.portal-frame__navigation-title'))).toBe(messages.shell.navigationHeader);
    // Both titles, the supplier's and staff's; frame.css shows one.
    expect([...frame.querySelectorAll('h1')].map(text)).toEqual([invoicesMessages.title, invoicesMessages.staffTitle]);
    expect(text(frame.querySelector('.portal-frame__description'))).toBe(invoicesMessages.description);
    // A phone's, whose cards have no columns: the same without its sorting sentence (frame.css hides it there).
    frame.querySelector('.portal-frame__description-sorting')!.remove();
    expect(text(frame.querySelector('.portal-frame__description'))).toBe(invoicesMessages.descriptionPhone);
    const loading = [...frame.querySelectorAll('[role="status"]')].map(text);
    expect(loading).toEqual([invoicesMessages.loading, messages.app.loading]);
  });

  it('holds nothing of a user: no number, no name but the product, no link', () => {
    const frame = frameFromIndex();
    expect(frame.querySelectorAll('a, img, input, button')).toHaveLength(0);
    expect(text(frame)).not.toMatch(/\d/);
  });

  it('shows the invoices screen only on its addresses, and only to a browser with a stored session', () => {
    expect(frameFor('/invoices')).toBe('signed-out');
    expect(frameFor('/login')).toBe('signed-out');

    localStorage.setItem('CognitoIdentityServiceProvider.client123.LastAuthUser', 'proveedor@demo.pe');
    expect(frameFor('/')).toBe('invoices');
    expect(frameFor('/invoices')).toBe('invoices');
    expect(frameFor('/invoices/20100070970/01/F001-1')).toBe('invoices');
    expect(frameFor('/invoicesx')).toBe('signed-in');
    expect(frameFor('/dashboard')).toBe('signed-in');

    localStorage.clear();
    sessionStorage.setItem('portal.mockSession', '{}');
    expect(frameFor('/invoices')).toBe('invoices');
  });

  it("paints staff's title for a browser whose last user was staff, the supplier's otherwise", () => {
    sessionStorage.setItem('portal.mockSession', '{}');
    expect(audienceFor('/')).toBe('supplier');
    expect(shownTitles()).toEqual([invoicesMessages.title]);

    localStorage.setItem(AUDIENCE_KEY, 'staff');
    expect(audienceFor('/')).toBe('staff');
    expect(shownTitles()).toEqual([invoicesMessages.staffTitle]);

    // Anything else stored there is no audience the frame knows.
    localStorage.setItem(AUDIENCE_KEY, 'gestor@demo.pe');
    expect(audienceFor('/')).toBe('supplier');
    expect(shownTitles()).toEqual([invoicesMessages.title]);
  });
});

describe('the app taking the frame’s place', () => {
  beforeEach(() => {
    document.body.prepend(frameFromIndex());
  });

  it("keeps the frame while the guard asks who the user is, and removes it as the screen's header paints", async () => {
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    mockServer.use(
      http.get(`${TEST_CONFIG.apiUrl}/users/me`, async () => {
        await answered;
        return undefined; // on to the mock provider's own answer
      }),
    );

    renderApp('/invoices', 'proveedor');

    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(frameShown()).toBe(true);
    expect(document.querySelector('#portal-top-navigation')).toBeNull();
    answer();
    await waitFor(() => expect(document.querySelector('#portal-top-navigation')).not.toBeNull());
    expect(frameShown()).toBe(false);
    await waitFor(() => expect(text(document.querySelector('h1'))).toContain(invoicesMessages.title));
    // The audience the next visit's frame paints the title of.
    expect(localStorage.getItem(AUDIENCE_KEY)).toBe('supplier');
  });

  it("keeps the staff audience of a manager's visit, which the app titles «Comprobantes recibidos»", async () => {
    renderApp('/', 'gestor');

    await waitFor(() => expect(text(document.querySelector('h1'))).toContain(invoicesMessages.staffTitle));
    expect(frameShown()).toBe(false);
    expect(localStorage.getItem(AUDIENCE_KEY)).toBe('staff');
  });

  it('gives way to the sign-in for a visitor not signed in', async () => {
    renderApp('/invoices');

    await screen.findByText(messages.login.title);
    expect(frameShown()).toBe(false);
  });

  it('goes at once where the first screen renders without waiting (an unknown address)', async () => {
    renderApp('/no-existe', 'proveedor');

    expect(frameShown()).toBe(false);
  });
});
