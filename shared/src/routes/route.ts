import type * as z from 'zod/mini';
import type { FunctionUses } from '../access.js';
import type { ApiClientScope } from '../auth.js';
import type { Level } from '../domain.js';
import type { ErrorCode } from '../errors/catalogue.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteDef {
  /** Stable identifier: names the Lambda function and the OpenAPI operation. */
  readonly id: string;
  readonly method: HttpMethod;
  /** API Gateway path syntax: /suppliers/{supplierId}/invoices. */
  readonly path: string;
  readonly summary: string;
  /** 'public' routes skip the JWT authorizer (health checks, the OpenAPI document). */
  readonly auth: 'public' | 'jwt';
  /** Levels allowed; empty for public routes. */
  readonly roles: readonly Level[];
  /**
   * Whether the caller must act for a company of its taxId list (company-id header or the first).
   * Suppliers and managers without a taxId are refused such routes.
   */
  readonly requiresCompany: boolean;
  readonly request: {
    readonly path?: z.ZodMiniType;
    readonly query?: z.ZodMiniType;
    readonly body?: z.ZodMiniType;
    /** Parameters whose invalid value has a code of its own in spec §8 (instead of ERROR_INVALID_PARAMETER). */
    readonly parameterCodes?: Readonly<Partial<Record<string, ErrorCode>>>;
  };
  readonly response: z.ZodMiniType;
  readonly successStatus: 200 | 201 | 202 | 204;
  /** Handler module under functions/src/handlers, without extension. */
  readonly handler: string;
  /**
   * What the route's function touches (table, documents, queues, user pool, e-mail): CDK grants exactly this and
   * sets the environment it implies. Read the handler's use-case factory to write it (see FunctionUses).
   */
  readonly uses: FunctionUses;
  /**
   * The scope that lets a supplier's API client (an OAuth2 client-credentials token) call the route; absent: no
   * machine client may (403 ERROR_API_CLIENT_ROUTE_NOT_ALLOWED). Such a route counts the client's calls
   * (uses.apiClientRate). Only the supplier's own routes to submit and follow invoices have one.
   */
  readonly machineScope?: ApiClientScope;
}

export const ALL_SIGNED_IN = ['ADMIN', 'MANAGER', 'SUPPLIER'] as const satisfies readonly Level[];
export const STAFF = ['ADMIN', 'MANAGER'] as const satisfies readonly Level[];
export const ADMIN_ONLY = ['ADMIN'] as const satisfies readonly Level[];
export const MANAGER_ONLY = ['MANAGER'] as const satisfies readonly Level[];
/** Who registers invoices: the supplier, or an administrator for it. */
export const SUBMITTERS = ['SUPPLIER', 'ADMIN'] as const satisfies readonly Level[];

/** What a route states of its own; `auth`, `successStatus` and `requiresCompany` have defaults. */
type RouteInput = Omit<RouteDef, 'auth' | 'successStatus' | 'requiresCompany'> & Partial<RouteDef>;

/** A route's `auth`: the one it states, else 'jwt' (a route is public only by saying so). */
type AuthOf<R> = R extends { readonly auth: infer A } ? A : 'jwt';

export function route<const R extends RouteInput>(
  def: R,
): R & { readonly auth: AuthOf<R> } & Pick<RouteDef, 'successStatus' | 'requiresCompany'> {
  const auth = (def.auth ?? 'jwt') as AuthOf<R>;
  return { auth, successStatus: 200, requiresCompany: auth === 'jwt', ...def };
}

/** Administration routes: administrators only, who act for no company in particular. */
export const ADMINISTRATION = { roles: ADMIN_ONLY, requiresCompany: false } as const;

/** An invoice path whose id breaks the series-number format answers the spec's own code. */
export const INVOICE_ID_CODES = { invoiceId: 'ERROR_INVOICE_ID_WITH_INVALID_FORMAT' } as const;

/** A route a supplier's API client may call with `scope`: its function also counts the client's calls. */
export function machineRoute<const U extends FunctionUses>(
  scope: ApiClientScope,
  uses: U,
): { readonly machineScope: ApiClientScope; readonly uses: U & { readonly apiClientRate: true } } {
  return { machineScope: scope, uses: { ...uses, apiClientRate: true } };
}
