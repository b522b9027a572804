import { PATHS } from './guard';

/**
 * Where a signed-out user was going when the guard sent it to the login (an invoice an e-mail links to):
 * the login sends it there once signed in, across the corporate sign-in's round trip too. Only a path of
 * this site counts (never another origin, never the login itself), so a crafted link cannot send a user
 * who signs in elsewhere.
 */
export interface ReturnState {
  readonly returnTo: string;
}

/** The place to come back to, as the guard hands it to the login in the navigation's state. */
export function returnStateFor(location: { pathname: string; search: string }): ReturnState | undefined {
  const returnTo = safeReturnPath(`${location.pathname}${location.search}`);
  return returnTo && returnTo !== PATHS.home ? { returnTo } : undefined;
}

const hasControlCharacter = (value: string) =>
  [...value].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f);

/** A path of this site to return to after signing in, or null when `value` is none. */
export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 2000) return null;
  // One leading slash, no scheme-relative '//' or '/\\' (both leave the origin), no control characters.
  if (!/^\/(?![/\\])/.test(value) || value.includes('\\') || hasControlCharacter(value)) return null;
  const path = value.split(/[?#]/, 1)[0]!;
  if (path === PATHS.login || path.startsWith(`${PATHS.login}/`)) return null;
  return value;
}

/** The return path a navigation state carries (the login's location.state), if any. */
export function returnPathOf(state: unknown): string | null {
  return typeof state === 'object' && state !== null ? safeReturnPath((state as Partial<ReturnState>).returnTo) : null;
}
