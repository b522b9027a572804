/**
 * The session on the mock provider (docs/web-mock.md): no identity service, the login's role picker stores who
 * the user plays in this tab. The API client sends it as a bearer token the mock handlers read back. Kept apart
 * from the mock's data, so that the API client does not carry it in the first chunk.
 */
export interface MockSession {
  /** A persona of mock/personas.ts. */
  readonly personaId: string;
  /** Its taxId claim: the comma list of RUCs the client acts for. */
  readonly taxId: string | null;
}

const STORAGE_KEY = 'portal.mockSession';
const TOKEN_PREFIX = 'mock.';

export function mockSession(): MockSession | null {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    return raw ? (JSON.parse(raw) as MockSession) : null;
  } catch {
    return null;
  }
}

export function startMockSession(session: MockSession): void {
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
}

export function endMockSession(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}

export function mockTokenOf(session: MockSession): string {
  return `${TOKEN_PREFIX}${session.personaId}`;
}

/** The persona id a mock bearer token carries, or null for any other authorization header. */
export function mockSessionOfToken(authorization: string | null): string | null {
  const token = authorization?.replace(/^Bearer\s+/i, '') ?? '';
  return token.startsWith(TOKEN_PREFIX) ? token.slice(TOKEN_PREFIX.length) : null;
}
