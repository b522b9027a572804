import type { Level } from '@portal/shared';

/**
 * Whom the invoices screen speaks to: a supplier, about the invoices it issued («Mis comprobantes»), or staff
 * (managers and administrators), who receive the invoices they review («Comprobantes recibidos»).
 */
export type Audience = 'supplier' | 'staff';

export function audienceOf(level: Level | undefined): Audience {
  return level === 'MANAGER' || level === 'ADMIN' ? 'staff' : 'supplier';
}

/**
 * Where the browser keeps the audience of the last user it loaded, for index.html's frame: web/frame/frame.js reads
 * it before the app's code arrives, to paint the invoices screen's title that user will see. Only 'staff' or
 * 'supplier', nothing of the user; the app's guard decides, as always, what the user may see.
 */
export const AUDIENCE_KEY = 'portal.audience';

/** Keeps the audience of the user just loaded (a sign-in, or a session resumed). */
export function rememberAudience(level: Level): void {
  try {
    localStorage.setItem(AUDIENCE_KEY, audienceOf(level));
  } catch {
    // Storage blocked: the frame then paints the supplier's title, and the app its own.
  }
}

/** Forgets it at sign-out: the next user's frame starts from the supplier's title. */
export function forgetAudience(): void {
  try {
    localStorage.removeItem(AUDIENCE_KEY);
  } catch {
    // Storage blocked: nothing was kept.
  }
}
