import {
  BadRequestError,
  type RouteBody,
  type RouteDef,
  type RouteId,
  type RoutePath,
  type RouteQuery,
  type RouteResponse,
  type Routes,
} from '@portal/shared';
import type { MockWorld } from './data';
import type { MockPersona } from './personas';

/** What a mock route receives: the request parsed with the route's own schemas, and who calls. */
export interface MockContext<R extends RouteDef> {
  readonly path: RoutePath<R>;
  readonly query: RouteQuery<R>;
  readonly body: RouteBody<R>;
  /** Null on public routes only: the others answer 401 without a persona. */
  readonly persona: MockPersona | null;
  /** The company the call acts for (the company-id header, or the persona's first). */
  readonly company: string | null;
  readonly world: MockWorld;
  readonly now: Date;
  /** Base URL of the mock's file links. */
  readonly filesUrl: string;
}

type MockResolver<R extends RouteDef> = (context: MockContext<R>) => RouteResponse<R>;

/** One answer per route of the manifest: a route added to it without one here does not compile. */
export type MockRoutes = { readonly [K in RouteId]: MockResolver<Routes[K]> };

export const HOUR_MS = 3_600_000;
/** How long verifySession says a mock session lasts (Cognito's ID token: one hour). */
export const MOCK_SIGNED_IN_HOURS = 1;

export function signedIn(persona: MockPersona | null): MockPersona {
  if (!persona) throw new Error('A jwt route resolved without a persona');
  return persona;
}

/** Opaque enough for the client: the offset of the next page. */
export function paginate<T>(items: readonly T[], query: { limit: number; cursor?: string | undefined }) {
  const offset = query.cursor === undefined ? 0 : Number(query.cursor);
  if (!Number.isInteger(offset) || offset < 0) throw new BadRequestError('ERROR_INVALID_CURSOR');
  const end = offset + query.limit;
  return { items: items.slice(offset, end), nextCursor: end < items.length ? String(end) : null };
}
