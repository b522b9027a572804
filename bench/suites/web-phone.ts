import type { BrowserContext } from 'playwright-core';
import { ensureWebBuild } from '../../local/runtime/web-build.js';
import { launchChromium } from '../../tests/support/browser.js';
import { DEFAULT_INVOICES_PAGE_SIZE } from '../../web/src/pages/invoices/page-size.js';
import type { BenchContext, BenchStage, BenchSuite, Figure } from '../lib/figures.js';
import { MID_RANGE_PHONE, emulateMidRangePhone } from '../lib/phone.js';
import { VITALS_INVOICES } from '../lib/web-budgets.js';
import { ensureSupplierInvoices } from '../lib/web-seed.js';
import {
  ROW_SELECTOR,
  describeLcpCandidates,
  interactionToNextPaint,
  readInteractions,
  readLayoutShift,
  readVitals,
  recordVitals,
  warmSignIn,
  type Interaction,
  type LoadVitals,
} from '../lib/web-vitals.js';

/** The supplier whose invoices screen is measured (it signs in with its password). */
const SUPPLIER = 'proveedor@demo.pe';

/** Core Web Vitals' "good" thresholds (web.dev), the phone's targets. */
export const PHONE_TARGETS = { lcpMs: 2500, inpMs: 200, cls: 0.1 } as const;

/** The invoice detail sidebar, once its invoice is in (web/src/pages/invoices/detail/invoice-detail-panel.tsx). */
const DETAIL_LOADED = '[data-testid="invoice-detail-panel"][data-invoice-id]';

interface PhoneVisit {
  readonly load: LoadVitals;
  /** The interaction that opened the sidebar (its longest event). */
  readonly open: Interaction;
  readonly inpMs: number;
  /** From the click to the sidebar showing the invoice, seen from the test (ms). */
  readonly detailMs: number;
  /** Layout shift of the whole visit: the load, then opening the sidebar. */
  readonly cls: number;
}

/**
 * The two visits measured: the first after a release (the HTTP cache disabled: every file comes over the slow
 * network) and a supplier's return (the files of the last visit in the browser's cache, as the site's immutable
 * assets stay; index.html, config.json and the API's answers still come over the network).
 */
export const VISITS = {
  first: { label: 'first visit after a release, no HTTP cache', cacheDisabled: true },
  return: { label: 'return visit, files in the HTTP cache', cacheDisabled: false },
} as const;

export type VisitKind = keyof typeof VISITS;

/**
 * One visit of the phone: a new tab, slowed down to the phone's CPU and network, opens /invoices, waits until
 * its rows are in and the page has settled, then taps the first invoice's number, which opens its sidebar.
 */
async function visit(browserContext: BrowserContext, url: string, rows: number, kind: VisitKind): Promise<PhoneVisit> {
  const page = await browserContext.newPage();
  try {
    const cdp = await browserContext.newCDPSession(page);
    await emulateMidRangePhone(cdp, { cacheDisabled: VISITS[kind].cacheDisabled });
    await page.goto(url, { waitUntil: 'commit' });
    const load = await readVitals(page, rows);
    if (load.rows !== rows) throw new Error(`The invoices screen showed ${load.rows} rows, not ${rows}`);
    if (!new URL(page.url()).pathname.startsWith('/invoices')) {
      throw new Error(`The invoices screen sent the browser to ${page.url()}`);
    }
    const before = (await readInteractions(page)).length;
    const clicked = Date.now();
    await page.locator(ROW_SELECTOR).first().click();
    await page.locator(DETAIL_LOADED).waitFor({ timeout: 60_000 });
    const detailMs = Date.now() - clicked;
    if (!/^\/invoices\/.+/.test(new URL(page.url()).pathname)) {
      throw new Error(`Opening the invoice went to ${page.url()}, not its detail`);
    }
    // Event Timing entries are delivered after the frame they end in: let the page paint and report them.
    await page.waitForLoadState('networkidle', { timeout: 60_000 });
    await page.waitForTimeout(1000);
    const interactions = (await readInteractions(page)).slice(before);
    const open = interactions.reduce<Interaction | undefined>(
      (longest, interaction) => (!longest || interaction.durationMs > longest.durationMs ? interaction : longest),
      undefined,
    );
    if (!open) throw new Error('The browser reported no interaction for the click on the invoice');
    return { load, open, inpMs: interactionToNextPaint(interactions), detailMs, cls: await readLayoutShift(page) };
  } finally {
    await page.close();
  }
}

async function measure(context: BenchContext, stage: BenchStage): Promise<Record<VisitKind, PhoneVisit[]>> {
  const account = stage.outputs.demoUsers.find((user) => user.username === SUPPLIER);
  if (!account) throw new Error(`The stage has no demo user ${SUPPLIER}`);
  const invoices = await ensureSupplierInvoices(stage.outputs, SUPPLIER, VITALS_INVOICES);
  const rows = Math.min(invoices, DEFAULT_INVOICES_PAGE_SIZE);
  const { network } = MID_RANGE_PHONE;
  context.log(
    `${SUPPLIER} has ${invoices} invoices (pages of ${rows}); CPU ${MID_RANGE_PHONE.cpuSlowdown}× slower, ` +
      `${network.name} (${network.latencyMs} ms, ${(network.downloadBytesPerSecond / 1000).toFixed(0)} kB/s down)`,
  );

  const browser = await launchChromium();
  try {
    const browserContext = await browser.newContext({
      locale: 'es-PE',
      timezoneId: 'America/Lima',
      viewport: MID_RANGE_PHONE.viewport,
      deviceScaleFactor: MID_RANGE_PHONE.deviceScaleFactor,
      isMobile: true,
      hasTouch: true,
    });
    await recordVitals(browserContext);
    const url = (pathname: string) => new URL(pathname, stage.webUrl).toString();

    await warmSignIn(browserContext, stage.webUrl, account);

    const visits: Record<VisitKind, PhoneVisit[]> = { first: [], return: [] };
    for (const kind of Object.keys(VISITS) as VisitKind[]) {
      // Warm-up: the stage's handlers and the browser's processes (and, for a return visit, its cache).
      await visit(browserContext, url('/invoices'), rows, kind);
      for (let index = 0; index < context.repeats; index += 1) {
        const result = await visit(browserContext, url('/invoices'), rows, kind);
        const { load, open } = result;
        context.log(
          `${kind} visit ${index + 1}: LCP ${load.lcpMs.toFixed(0)} ms (${load.lcpElement}), ` +
            `FCP ${load.fcpMs.toFixed(0)} ms, ${load.rows} rows at ${load.rowsAtMs.toFixed(0)} ms, ` +
            `TBT ${load.tbtMs.toFixed(0)} ms; INP ${result.inpMs.toFixed(0)} ms (${open.name}: delay ` +
            `${open.inputDelayMs.toFixed(0)}, handlers ${open.processingMs.toFixed(0)}, paint ` +
            `${open.presentationMs.toFixed(0)}), detail in ${result.detailMs} ms; CLS ${load.cls.toFixed(4)} at ` +
            `load, ${result.cls.toFixed(4)} in all`,
        );
        // What the largest paint was, and what came before it: every decision about the LCP starts from these.
        context.log(`  LCP candidates: ${describeLcpCandidates(load.lcpCandidates)}`);
        visits[kind].push(result);
      }
    }
    return visits;
  } finally {
    await browser.close();
  }
}

function figures(kind: VisitKind, visits: readonly PhoneVisit[]): Figure[] {
  const rows = visits[0]?.load.rows ?? 0;
  const phone = `mid-range phone: CPU ${MID_RANGE_PHONE.cpuSlowdown}×, ${MID_RANGE_PHONE.network.name}; ${VISITS[kind].label}`;
  return [
    {
      id: `web-phone.${kind}.lcp`,
      label: `Phone LCP, invoices screen of ${rows} rows (${phone})`,
      unit: 'ms',
      samples: visits.map((visit) => Math.round(visit.load.lcpMs)),
      target: { max: PHONE_TARGETS.lcpMs },
    },
    {
      id: `web-phone.${kind}.inp`,
      label: `Phone INP, tapping an invoice's number to open its sidebar (${phone})`,
      unit: 'ms',
      samples: visits.map((visit) => Math.round(visit.inpMs)),
      target: { max: PHONE_TARGETS.inpMs },
    },
    {
      id: `web-phone.${kind}.cls`,
      label: `Phone CLS, invoices screen then its sidebar (${phone})`,
      unit: 'ratio',
      samples: visits.map((visit) => Math.round(visit.cls * 10_000) / 10_000),
      target: { max: PHONE_TARGETS.cls },
    },
    {
      id: `web-phone.${kind}.fcp`,
      label: `Phone FCP, invoices screen (${phone})`,
      unit: 'ms',
      samples: visits.map((visit) => Math.round(visit.load.fcpMs)),
    },
    {
      id: `web-phone.${kind}.rowsRendered`,
      label: `Phone time to the invoices rows (${phone})`,
      unit: 'ms',
      samples: visits.map((visit) => Math.round(visit.load.rowsAtMs)),
    },
    {
      id: `web-phone.${kind}.tbt`,
      label: `Phone total blocking time, FCP to rows rendered (${phone})`,
      unit: 'ms',
      samples: visits.map((visit) => Math.round(visit.load.tbtMs)),
    },
    {
      id: `web-phone.${kind}.detail`,
      label: `Phone time from the tap to the sidebar showing the invoice (${phone})`,
      unit: 'ms',
      samples: visits.map((visit) => visit.detailMs),
    },
  ];
}

/**
 * The portal on a mid-range phone. The invoices screen and its detail sidebar in Chromium, slowed down
 * through the DevTools protocol (bench/lib/phone.ts), with the web-vitals way of reading LCP, CLS and INP
 * (bench/lib/web-vitals.ts); targets: Core Web Vitals' "good".
 */
export const suite: BenchSuite = {
  name: 'web-phone',
  async run(context) {
    await ensureWebBuild(context.log);
    const stage = await context.stage();
    const visits = await measure(context, stage);
    return [...figures('first', visits.first), ...figures('return', visits.return)];
  },
};
