import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's one Chromium (its Playwright server, tests/setup/browser-server.ts). */
    browserWsEndpoint: string;
  }
}

/** The system Chromium (tests/ensure-chromium.sh installs it); Playwright's own download is never used. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

/** Where failure screenshots go (ignored by git). */
export const ARTIFACTS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../.artifacts');

export interface BrowserSession {
  readonly context: BrowserContext;
  readonly page: Page;
  /**
   * What the browser refused under a page's Content-Security-Policy: the app must run under the policy
   * it is served with (the production one, shared/src/csp.ts), so any entry is a failure.
   */
  readonly cspViolations: readonly string[];
  close(): Promise<void>;
}

/**
 * Records every CSP violation of the session's pages: the `securitypolicyviolation` event each document
 * fires, and Chromium's console report of it (which also covers workers).
 */
async function watchCspViolations(context: BrowserContext): Promise<string[]> {
  const violations: string[] = [];
  await context.exposeBinding('__reportCspViolation', (_source, text: string) => {
    violations.push(text);
  });
  // Runs in each document before its own scripts (the tests' tsconfig has no DOM types: plain source).
  await context.addInitScript({
    content: `document.addEventListener('securitypolicyviolation', (event) => {
      window.__reportCspViolation(event.effectiveDirective + ' refused ' + (event.blockedURI || 'inline') + ' on ' + event.documentURI);
    });`,
  });
  context.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) violations.push(message.text());
  });
  return violations;
}

export interface BrowserOptions {
  /** The browser's own time zone (Lima unless a test plays a user elsewhere). */
  readonly timezoneId?: string;
  readonly viewport?: { readonly width: number; readonly height: number };
  /**
   * Device pixels per CSS pixel. With a viewport of half a window's width, 2 is that window zoomed to 200 %:
   * Chromium's zoom divides the CSS pixels a page lays out in by the zoom factor and paints each at that scale.
   */
  readonly deviceScaleFactor?: number;
  /** A touch screen, as a phone's: `locator.tap()` then taps as a finger does. */
  readonly hasTouch?: boolean;
}

let connected: Promise<Browser> | undefined;

/** This worker's connection to the run's one Chromium (tests/setup/browser-server.ts). */
function runBrowser(): Promise<Browser> {
  if (!connected) {
    const endpoint = inject('browserWsEndpoint');
    connected = chromium.connect(endpoint).catch((error: Error) => {
      connected = undefined;
      throw error;
    });
  }
  return connected;
}

/**
 * A fresh context of the run's Chromium: no cookie, storage or cache of another test leaks into it. Each test
 * opens its own session and closes it.
 */
export async function openBrowser(options: BrowserOptions = {}): Promise<BrowserSession> {
  const browser = await runBrowser();
  const context = await browser.newContext({
    locale: 'es-PE',
    timezoneId: options.timezoneId ?? 'America/Lima',
    viewport: options.viewport ?? { width: 1440, height: 900 },
    deviceScaleFactor: options.deviceScaleFactor ?? 1,
    hasTouch: options.hasTouch ?? false,
    // As a user who asked the system for less motion: Cloudscape then draws no transitions, which cost the two
    // cores of a run (and the waits for them) and prove nothing a journey asserts.
    reducedMotion: 'reduce',
  });
  const cspViolations = await watchCspViolations(context);
  const page = await context.newPage();
  return {
    context,
    page,
    cspViolations,
    async close() {
      await context.close();
    },
  };
}

/** A plain browser (no persistent profile) for scripts that need several contexts. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS], headless: true });
}

/** Saves a full-page screenshot under tests/.artifacts/ and returns its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  const file = path.join(ARTIFACTS_DIR, `${name.replace(/[^\w.-]+/g, '-')}-${Date.now()}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
