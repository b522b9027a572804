import {
  API_RESOURCE_SERVER,
  CLAIMS,
  ForbiddenError,
  Level,
  UnauthorizedError,
  USER_ATTRIBUTES,
  parseGroups,
  parseTaxIds,
  type RouteDef,
  type SignInMethod,
} from '@portal/shared';

/** Who is calling, as the JWT authorizer's claims say, and for which company they act. */
export interface Caller {
  readonly sub: string;
  /** Set when a supplier's API client calls (an OAuth2 client-credentials access token); null for a person. */
  readonly machine?: MachineClient | null;
  /** The user pool's Username (`cognito:username`): what the Cognito admin API names the account by. */
  readonly username: string;
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly level: Level;
  readonly taxIds: readonly string[];
  readonly groups: readonly string[];
  /** The company chosen in the company-id header, or the first of the taxId list. */
  readonly activeCompany: string | null;
  /** Token expiry, seconds since the epoch. */
  readonly expiresAt: number;
  /**
   * How the user signed in (the trigger's claim; a token without it: the portal's password). EMAIL and API are
   * the intake channels that act for a supplier without a browser session.
   */
  readonly signIn: Exclude<SignInMethod, 'SYSTEM'>;
  /** The request id the caller sees: the audit trail records the call each change came from. */
  readonly txId: string;
}

/** An API client's identity, from its access token. */
export interface MachineClient {
  readonly clientId: string;
  /** The token's scopes of the portal's resource server, without the `portal/` prefix. */
  readonly scopes: readonly string[];
}

type Claims = Record<string, string | number | boolean | string[] | undefined>;

const text = (value: Claims[string]): string =>
  value === undefined ? '' : Array.isArray(value) ? value.join(',') : String(value);

/** API Gateway renders array claims as "[a b]"; the local gateway does the same. */
function groupsOf(claims: Claims): string[] {
  const sso = parseGroups(text(claims[USER_ATTRIBUTES.ssoGroups]));
  if (sso.length > 0) return sso;
  const raw = text(claims[CLAIMS.groups])
    .replace(/^\[|\]$/g, '')
    .trim();
  return raw ? raw.split(/[\s,]+/) : [];
}

/**
 * A machine token: an access token (token_use `access`) with `client_id` and `scope` and no `cognito:username`,
 * which only the client-credentials grant issues. A person's access token names its user; the web app sends ID
 * tokens, which carry `aud` and no `scope`.
 */
function machineOf(claims: Claims): MachineClient | null {
  if (text(claims[CLAIMS.tokenUse]) !== 'access') return null;
  const clientId = text(claims[CLAIMS.clientId]);
  if (!clientId || claims['cognito:username'] !== undefined || claims.username !== undefined) return null;
  const prefix = `${API_RESOURCE_SERVER}/`;
  const scopes = text(claims[CLAIMS.scope])
    .replace(/^\[|\]$/g, '')
    .split(/[\s,]+/)
    .filter((scope) => scope.startsWith(prefix))
    .map((scope) => scope.slice(prefix.length));
  return { clientId, scopes };
}

/**
 * Builds the caller from verified claims and enforces the route's roles and the company rules:
 * suppliers and managers act only for a company of their taxId list; admins for any.
 */
export function resolveCaller(
  route: RouteDef,
  claims: Claims | undefined,
  companyHeader: string | undefined,
  txId: string,
  apiClientHeader?: string,
): Caller {
  if (!claims || !claims.sub) throw new UnauthorizedError();
  const machine = machineOf(claims);
  // The firewall's machine path is chosen by the header: it must name the token's client, and only a client's.
  const declared = apiClientHeader?.trim() || undefined;
  if (declared !== machine?.clientId) throw new ForbiddenError('ERROR_API_CLIENT_HEADER');
  if (machine) {
    // Only the routes the manifest opens to API clients, each with its scope; and a supplier's level only.
    if (!route.machineScope) throw new ForbiddenError('ERROR_API_CLIENT_ROUTE_NOT_ALLOWED');
    if (!machine.scopes.includes(route.machineScope)) {
      throw new ForbiddenError('ERROR_API_CLIENT_SCOPE_MISSING', { scope: route.machineScope });
    }
    if (text(claims[CLAIMS.level]) !== 'SUPPLIER' || parseTaxIds(text(claims[CLAIMS.taxId])).length !== 1) {
      throw new ForbiddenError();
    }
  }
  const parsedLevel = Level.safeParse(text(claims[CLAIMS.level]));
  const level: Level = parsedLevel.success ? parsedLevel.data : 'UNKNOWN';
  if (!route.roles.includes(level)) throw new ForbiddenError();

  const taxIds = parseTaxIds(text(claims[CLAIMS.taxId]));
  const requested = companyHeader?.trim() || undefined;
  if (requested && level !== 'ADMIN' && !taxIds.includes(requested)) {
    throw new ForbiddenError('ERROR_COMPANY_NOT_ALLOWED', { companyId: requested });
  }
  const activeCompany = requested ?? taxIds[0] ?? null;
  if (route.requiresCompany && level !== 'ADMIN' && activeCompany === null) throw new ForbiddenError();

  return {
    sub: text(claims.sub),
    username: machine?.clientId ?? (text(claims['cognito:username']) || text(claims.sub)),
    email: text(claims.email),
    firstName: text(claims.given_name),
    lastName: text(claims.family_name),
    level,
    taxIds,
    groups: groupsOf(claims),
    activeCompany,
    expiresAt: Number(claims.exp ?? 0),
    signIn: machine ? 'API' : text(claims[CLAIMS.signIn]) === 'CORPORATE' ? 'CORPORATE' : 'PASSWORD',
    machine,
    txId,
  };
}
