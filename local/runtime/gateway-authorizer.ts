import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';

/**
 * API Gateway's JWT authorizer on the local stage: the token's signature by the pool's JWKS, its issuer, and its
 * audience (the web client, or an active API client's id).
 */

const VERIFIED_MAX = 1000;

export interface AuthorizerOptions {
  readonly jwksUrl: string;
  readonly issuer: string;
  /** The web app client id. */
  readonly audience: string;
  /** Whether a client id is an active API client's. */
  readonly machineAudience?: (clientId: string) => Promise<boolean>;
}

/** The authorizer: the claims of an accepted `Authorization: Bearer` header, as API Gateway hands them on; null. */
export function createJwtAuthorizer(
  options: AuthorizerOptions,
): (header: string | undefined) => Promise<Record<string, string> | null> {
  const jwks = createRemoteJWKSet(new URL(options.jwksUrl));
  // A verified token's claims, until it expires: the signature check is API Gateway's work (outside the functions),
  // and repeating it on every call would make the local stage's single process pay for it on each request.
  const verified = new Map<string, { claims: Record<string, string>; audience: unknown[]; expiresAt: number }>();

  /** Whether the authorizer's audience holds one of the token's: the web client, or an active API client. */
  async function accepted(audience: readonly unknown[]): Promise<boolean> {
    if (audience.includes(options.audience)) return true;
    const isMachine = options.machineAudience;
    if (!isMachine) return false;
    for (const value of audience) if (typeof value === 'string' && (await isMachine(value))) return true;
    return false;
  }

  async function authorize(header: string | undefined): Promise<Record<string, string> | null> {
    const token = /^Bearer (.+)$/i.exec(header ?? '')?.[1];
    if (!token) return null;
    const known = verified.get(token);
    // The audience is checked at every call: a revoked API client leaves it at once, as in AWS.
    if (known && known.expiresAt > Date.now()) return (await accepted(known.audience)) ? known.claims : null;
    if (known) verified.delete(token);
    try {
      const { payload } = await jwtVerify(token, jwks, { issuer: options.issuer, algorithms: ['RS256'] });
      const audience: unknown[] = Array.isArray(payload.aud) ? payload.aud : [payload.aud ?? payload.client_id];
      if (!(await accepted(audience))) return null;
      const claims = claimsAsApiGateway(payload);
      if (payload.exp !== undefined) {
        if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
        verified.set(token, { claims, audience, expiresAt: payload.exp * 1000 });
      }
      return claims;
    } catch {
      return null;
    }
  }

  return authorize;
}

/** HTTP API renders claims as strings, arrays as "[a b]". */
function claimsAsApiGateway(payload: JWTPayload): Record<string, string> {
  const claims: Record<string, string> = {};
  for (const [name, value] of Object.entries(payload)) {
    claims[name] = Array.isArray(value)
      ? `[${value.join(' ')}]`
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
  }
  return claims;
}
