import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { readUntil } from './until.js';

/** The element that has the keyboard focus, as assistive technology and a sighted keyboard user meet it. */
export interface Focus {
  /** Its ARIA role and accessible name (Playwright's computation, the one getByRole uses). */
  readonly role: string;
  readonly name: string;
  /** Painted with a focus indicator (an outline or a ring on it or its ::before/::after) and inside the viewport. */
  readonly visible: boolean;
  /** Inside an open modal dialog. */
  readonly inDialog: boolean;
  /** The landmark it belongs to: banner, navigation, main, complementary (the side panel), dialog, or none. */
  readonly region: string;
}

/** What a target of the focus is: a role and its accessible name (a string is matched exactly). */
export interface FocusTarget {
  readonly role: string;
  readonly name: string | RegExp;
}

const matches = (focus: Focus, target: FocusTarget) =>
  focus.role === target.role &&
  (typeof target.name === 'string' ? focus.name === target.name : target.name.test(focus.name));

const describeFocus = (focus: Focus) => `${focus.role} "${focus.name}" (${focus.region})`;

/** The focused element now: its role and name, whether the focus shows, where it is. */
export async function focusOf(page: Page): Promise<Focus> {
  // A screen that re-renders may replace the focused element while it is read: read again.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await readFocus(page);
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
}

async function readFocus(page: Page): Promise<Focus> {
  const focused = page.locator('*:focus');
  if ((await focused.count()) === 0) return { role: 'none', name: '', visible: false, inDialog: false, region: 'none' };
  // The first line of the element's own ARIA snapshot: `- role "name"` (a textbox adds its value after a colon).
  const snapshot = await focused.ariaSnapshot({ timeout: 2000 });
  const [, role = 'generic', name = ''] =
    /^- ([\w-]+)(?: "((?:[^"\\]|\\.)*)")?/.exec(snapshot.split('\n')[0] ?? '') ?? [];
  const shown = await focused.evaluate(
    (element) => {
      // Runs in the page (the tests compile without the DOM library): the few members it needs.
      type Style = { outlineStyle: string; outlineWidth: string; outlineColor: string; boxShadow: string };
      const page = globalThis as unknown as {
        getComputedStyle(element: unknown, pseudo?: string): Style;
        innerWidth: number;
        innerHeight: number;
      };
      const node = element as unknown as {
        getBoundingClientRect(): { top: number; bottom: number; left: number; right: number };
        closest(selector: string): { getAttribute(name: string): string | null; tagName: string } | null;
      };
      const transparent = (color: string) => color === 'transparent' || /rgba\(.*,\s*0\)$/.test(color);
      const ring = (style: Style) =>
        (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0 && !transparent(style.outlineColor)) ||
        (style.boxShadow !== 'none' && style.boxShadow !== '');
      const indicated = [undefined, '::before', '::after'].some((pseudo) =>
        ring(page.getComputedStyle(element, pseudo)),
      );
      const box = node.getBoundingClientRect();
      const inView = box.bottom > 0 && box.top < page.innerHeight && box.right > 0 && box.left < page.innerWidth;
      const dialog = node.closest('[role="dialog"], [role="alertdialog"], dialog[open]');
      const landmark = node.closest('header, nav, main, aside, [role="banner"], [role="navigation"], [role="main"]');
      const region = dialog
        ? 'dialog'
        : !landmark
          ? 'none'
          : (landmark.getAttribute('role') ??
            { HEADER: 'banner', NAV: 'navigation', MAIN: 'main', ASIDE: 'complementary' }[landmark.tagName] ??
            'none');
      return { visible: indicated && inView, inDialog: Boolean(dialog), region };
    },
    undefined,
    { timeout: 2000 },
  );
  return { role, name: name.replace(/\\(.)/g, '$1'), ...shown };
}

/** How long a focus ring may take to paint: Cloudscape draws its rings with a short transition (under 0.2 s). */
const RING_PAINT_MS = 1000;

/**
 * The focus after a key press, read again for a moment while it shows no indicator: the ring's transition may not
 * have started when it is first read on a busy machine. A focus that never shows one stays unseen.
 */
async function paintedFocus(page: Page): Promise<Focus> {
  return readUntil(
    () => focusOf(page),
    (focus) => focus.visible || focus.role === 'none',
    {
      timeout: RING_PAINT_MS,
      interval: 50,
    },
  );
}

/**
 * Presses Tab (Shift+Tab with `backwards`) until the focus reaches `target`, as a keyboard user walks a
 * screen, and returns every element the focus passed through. Each of them showed its focus (unless
 * `anyIndicator`: a page that is not the app's, the corporate identity provider's); the walk fails when the
 * target is not reached within `max` presses.
 */
export async function tabTo(
  page: Page,
  target: FocusTarget,
  options: { backwards?: boolean; max?: number; anyIndicator?: boolean } = {},
): Promise<Focus[]> {
  const walked: Focus[] = [];
  for (let press = 0; press < (options.max ?? 80); press += 1) {
    await page.keyboard.press(options.backwards ? 'Shift+Tab' : 'Tab');
    const focus = await paintedFocus(page);
    walked.push(focus);
    if (matches(focus, target)) {
      if (options.anyIndicator) return walked;
      expect(
        // 'none': the browser's own stop between the page's last element and its first, not the page's.
        walked.filter((step) => !step.visible && step.role !== 'none').map(describeFocus),
        'elementos enfocados sin indicador visible',
      ).toEqual([]);
      return walked;
    }
  }
  throw new Error(
    `El foco no llegó a ${target.role} "${String(target.name)}"; recorrió:\n${walked.map(describeFocus).join('\n')}`,
  );
}

/**
 * Presses an arrow key until the focus reaches `target`: how a keyboard user moves inside a composite widget
 * (the invoices table is a grid: one Tab stop, then the arrows from cell to cell).
 */
export async function arrowTo(
  page: Page,
  key: 'ArrowDown' | 'ArrowUp' | 'ArrowLeft' | 'ArrowRight',
  target: FocusTarget,
  max = 30,
): Promise<Focus> {
  const walked: Focus[] = [];
  for (let press = 0; press < max; press += 1) {
    await page.keyboard.press(key);
    const focus = await focusOf(page);
    walked.push(focus);
    if (matches(focus, target)) {
      expect(focus.visible, `${describeFocus(focus)} sin indicador visible`).toBe(true);
      return focus;
    }
  }
  throw new Error(
    `${key} no llevó el foco a ${target.role} "${String(target.name)}": ${walked.map(describeFocus).join(', ')}`,
  );
}

/** Waits until the focus is on `target` (after a key moved it, or a screen placed it). */
export async function expectFocusOn(page: Page, target: FocusTarget): Promise<Focus> {
  await expect
    .poll(async () => {
      const focus = await focusOf(page);
      return matches(focus, target) ? 'ok' : describeFocus(focus);
    })
    .toBe('ok');
  return focusOf(page);
}

/** Each region the focus entered, in order, without repeats (nor the browser's own stops): the outline of a walk. */
export function regionsOf(walk: readonly Focus[]): string[] {
  return walk
    .filter((step) => step.role !== 'none')
    .map((step) => step.region)
    .filter((region, index, all) => index === 0 || all[index - 1] !== region);
}

/**
 * The accessible names of the buttons on screen that show no text, only an icon (Cloudscape's icon variant, an
 * iconName without text): what a screen reader says for each.
 */
export async function iconButtonNames(page: Page): Promise<string[]> {
  const buttons = page.getByRole('button');
  const iconOnly = await buttons.evaluateAll((elements) =>
    elements.flatMap((element, index) => {
      // An SVG with the button role has no innerText: its text content then.
      const node = element as unknown as {
        innerText?: string;
        textContent: string | null;
        getClientRects(): ArrayLike<unknown>;
      };
      return node.getClientRects().length > 0 && (node.innerText ?? node.textContent ?? '').trim() === ''
        ? [index]
        : [];
    }),
  );
  const names: string[] = [];
  for (const index of iconOnly) {
    const snapshot = await buttons.nth(index).ariaSnapshot({ timeout: 2000 });
    names.push(/^- button(?: "((?:[^"\\]|\\.)*)")?/.exec(snapshot)?.[1] ?? '');
  }
  return names;
}
