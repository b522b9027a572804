import { ensureWebBuild } from '../../local/runtime/web-build.js';
import { launchChromium } from '../../tests/support/browser.js';
import { INVOICES_PAGE_SIZE_KEY, type InvoicesPageSize } from '../../web/src/pages/invoices/page-size.js';
import type { BenchContext, BenchStage, BenchSuite, Figure } from '../lib/figures.js';
import { VITALS_INVOICES, WEB_BUDGETS, kb } from '../lib/web-budgets.js';
import { ensureSupplierInvoices } from '../lib/web-seed.js';
import { LOADED_ONLY_WHEN_SET, measureWebSizes, type WebSizes } from '../lib/web-sizes.js';
import { readVitals, recordVitals, warmSignIn, type LoadVitals } from '../lib/web-vitals.js';

/** The supplier whose invoices screen is measured (it signs in with its password). */
const SUPPLIER = 'proveedor@demo.pe';
/**
 * The page size measured: the invoices screen's 'Filas por página' preference (web/src/pages/invoices/page-size.ts),
 * set in the browser's localStorage before every page loads, as a user who chose it has it. With VITALS_INVOICES
 * invoices (at least as many) the screen shows a full page of these many rows.
 */
const PAGE_ROWS: InvoicesPageSize = 50;

/** Runs in every page of the context before the app's scripts: the stored preference the screen reads. */
const PAGE_SIZE_SCRIPT = `try {
  localStorage.setItem(${JSON.stringify(INVOICES_PAGE_SIZE_KEY)}, ${JSON.stringify(String(PAGE_ROWS))});
} catch (error) {
  // about:blank and other opaque origins have no storage.
}`;

function sizeFigures(sizes: WebSizes): Figure[] {
  const figures: Figure[] = [
    {
      id: 'web.initial.js.gzip',
      label: 'Web initial JS (gzip, before the first screen renders)',
      unit: 'KB',
      samples: [kb(sizes.initialJs.gzipBytes)],
      target: { max: WEB_BUDGETS.initialJsKb },
    },
    {
      id: 'web.initial.css.gzip',
      label: 'Web initial CSS (gzip)',
      unit: 'KB',
      samples: [kb(sizes.initialCss.gzipBytes)],
    },
  ];
  for (const part of sizes.parts) {
    // The mock provider loads only when config.json asks for it (never on a stage): reported, not budgeted, as
    // sizeBudgetFailures and the build's budget test treat it.
    const budgeted = !LOADED_ONLY_WHEN_SET.includes(part.src);
    figures.push({
      id: `web.${part.kind}.${part.name}.gzip`,
      label: `Web ${part.kind === 'route' ? 'route' : 'lazy chunk'} ${part.name} (gzip, with the chunks only it needs${budgeted ? '' : '; only when config.json sets mock'})`,
      unit: 'KB',
      samples: [kb(part.gzipBytes)],
      ...(budgeted ? { target: { max: WEB_BUDGETS.routeChunkKb } } : {}),
    });
  }
  const routes = sizes.parts.filter((part) => part.kind === 'route');
  const largest = routes.reduce((a, b) => (b.gzipBytes > a.gzipBytes ? b : a));
  figures.push(
    {
      id: 'web.route.largest.gzip',
      label: `Web largest route (${largest.name}, gzip)`,
      unit: 'KB',
      samples: [kb(largest.gzipBytes)],
      target: { max: WEB_BUDGETS.routeChunkKb },
    },
    {
      id: 'web.shared.gzip',
      label: 'Web chunks shared by several routes (gzip, loaded with the first that needs them)',
      unit: 'KB',
      samples: [kb(sizes.shared.gzipBytes)],
    },
  );
  return figures;
}

/**
 * Loads of the invoices screen, set to pages of PAGE_ROWS, with a warm session: the supplier signs in once, then
 * each sample opens a new tab at /invoices with the HTTP cache disabled (every script is fetched and compiled
 * again, as on a first visit after a release) and waits until the table's rows are in and the page has settled.
 */
async function measureVitals(context: BenchContext, stage: BenchStage): Promise<LoadVitals[]> {
  const account = stage.outputs.demoUsers.find((user) => user.username === SUPPLIER);
  if (!account) throw new Error(`The stage has no demo user ${SUPPLIER}`);
  const invoices = await ensureSupplierInvoices(stage.outputs, SUPPLIER, VITALS_INVOICES);
  const minRows = Math.min(invoices, PAGE_ROWS);
  context.log(`${SUPPLIER} has ${invoices} invoices; the screen is set to show pages of ${PAGE_ROWS} rows`);

  const browser = await launchChromium();
  try {
    const browserContext = await browser.newContext({
      locale: 'es-PE',
      timezoneId: 'America/Lima',
      viewport: { width: 1440, height: 900 },
    });
    await browserContext.addInitScript({ content: PAGE_SIZE_SCRIPT });
    await recordVitals(browserContext);
    const url = (pathname: string) => new URL(pathname, stage.webUrl).toString();

    await warmSignIn(browserContext, stage.webUrl, account);

    const load = async (): Promise<LoadVitals> => {
      const page = await browserContext.newPage();
      try {
        const cdp = await browserContext.newCDPSession(page);
        await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
        await page.goto(url('/invoices'), { waitUntil: 'commit' });
        const vitals = await readVitals(page, minRows);
        if (vitals.rows !== minRows) {
          throw new Error(`The invoices screen showed ${vitals.rows} rows, not a page of ${minRows}`);
        }
        if (!new URL(page.url()).pathname.startsWith('/invoices')) {
          throw new Error(`The invoices screen sent the browser to ${page.url()}`);
        }
        return vitals;
      } finally {
        await page.close();
      }
    };

    await load(); // warm-up: the stage's handlers and the browser's processes
    const samples: LoadVitals[] = [];
    for (let index = 0; index < context.repeats; index += 1) {
      const vitals = await load();
      context.log(
        `load ${index + 1}: LCP ${vitals.lcpMs.toFixed(0)} ms (${vitals.lcpElement}), CLS ${vitals.cls.toFixed(4)}, ` +
          `FCP ${vitals.fcpMs.toFixed(0)} ms, ${vitals.rows} rows at ${vitals.rowsAtMs.toFixed(0)} ms, ` +
          `TBT ${vitals.tbtMs.toFixed(0)} ms (${vitals.longTasks} long tasks)`,
      );
      samples.push(vitals);
    }
    return samples;
  } finally {
    await browser.close();
  }
}

function vitalsFigures(samples: readonly LoadVitals[]): Figure[] {
  const rows = samples[0]?.rows ?? 0;
  const screen = `invoices screen, ${rows} rows`;
  return [
    {
      id: 'web.vitals.lcp',
      label: `Web LCP (${screen}, warm session, no HTTP cache)`,
      unit: 'ms',
      samples: samples.map((vitals) => Math.round(vitals.lcpMs)),
      target: { max: WEB_BUDGETS.lcpMs },
    },
    {
      id: 'web.vitals.cls',
      label: `Web CLS (${screen})`,
      unit: 'ratio',
      samples: samples.map((vitals) => Math.round(vitals.cls * 10_000) / 10_000),
      target: { max: WEB_BUDGETS.cls },
    },
    {
      id: 'web.vitals.tbt',
      label: `Web total blocking time, FCP to rows rendered (${screen})`,
      unit: 'ms',
      samples: samples.map((vitals) => Math.round(vitals.tbtMs)),
    },
    {
      id: 'web.vitals.fcp',
      label: `Web FCP (${screen})`,
      unit: 'ms',
      samples: samples.map((vitals) => Math.round(vitals.fcpMs)),
    },
    {
      id: 'web.vitals.rowsRendered',
      label: `Web time to the invoices rows (${screen})`,
      unit: 'ms',
      samples: samples.map((vitals) => Math.round(vitals.rowsAtMs)),
    },
  ];
}

/**
 * The production build's sizes (initial JS and CSS, each lazily loaded route) against the budgets that
 * `npm test` also checks (tests/infra/web-budgets.test.ts), and LCP, CLS and total blocking time of the invoices
 * screen in Chromium on the local stage.
 */
export const suite: BenchSuite = {
  name: 'web',
  async run(context) {
    const sizes = measureWebSizes(await ensureWebBuild(context.log));
    context.log(
      `initial JS ${kb(sizes.initialJs.gzipBytes)} KB gzip (${sizes.initialJs.files.length} chunks), ` +
        `initial CSS ${kb(sizes.initialCss.gzipBytes)} KB gzip`,
    );
    const stage = await context.stage();
    return [...sizeFigures(sizes), ...vitalsFigures(await measureVitals(context, stage))];
  },
};
