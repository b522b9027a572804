import { ErrorBody } from './schemas/common.js';
import type * as z from 'zod/mini';
import { apiClientRoutes } from './routes/api-clients.js';
import { acquirerConformityRoutes } from './routes/acquirer-conformity.js';
import { clientRoutes } from './routes/clients.js';
import { conformityRoutes } from './routes/conformity.js';
import { conversationRoutes } from './routes/conversations.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { exportRoutes } from './routes/exports.js';
import { intakeBatchRoutes } from './routes/intake-batches.js';
import { invoiceRoutes } from './routes/invoices.js';
import { notificationRoutes } from './routes/notifications.js';
import { referenceRoutes } from './routes/reference.js';
import { reviewRoutes } from './routes/review.js';
import type { RouteDef } from './routes/route.js';
import { sessionRoutes } from './routes/session.js';
import { supplierRoutes } from './routes/suppliers.js';
import { systemRoutes } from './routes/system.js';
import { uploadRoutes } from './routes/uploads.js';
import { userAdminRoutes } from './routes/user-admin.js';

/**
 * Every endpoint of the product, declared once (spec §7 plus GET /users/me and GET /openapi.json), in
 * routes/ by area: a function imports its area's routes (`reviewRoutes.getInvoice`), so that its bundle builds
 * only their schemas; this object gathers them for everything else (CDK, the local stage, the OpenAPI
 * document, the web app, the tests).
 */
export const routes = {
  ...systemRoutes,
  ...sessionRoutes,
  ...clientRoutes,
  ...invoiceRoutes,
  ...uploadRoutes,
  ...reviewRoutes,
  ...conversationRoutes,
  ...acquirerConformityRoutes,
  ...dashboardRoutes,
  ...referenceRoutes,
  ...conformityRoutes,
  ...supplierRoutes,
  ...notificationRoutes,
  ...userAdminRoutes,
  ...exportRoutes,
  ...apiClientRoutes,
  ...intakeBatchRoutes,
} as const satisfies Record<string, RouteDef>;

/**
 * The manifest's areas, each deployed as a stack of its own (docs/adr/0048-stacks-by-area.md): every group of routes
 * above belongs to exactly one, so a route added to a group's file lands in its area's stack with no other edit
 * (tests/unit/route-areas.test.ts keeps every group in one area).
 */
export const ROUTE_AREAS = {
  /** The invoices and their review: lists, uploads, detail, approval, the dashboard, the parties. */
  invoices: [invoiceRoutes, uploadRoutes, reviewRoutes, dashboardRoutes, clientRoutes, supplierRoutes],
  /** Service sheets and goods receipts, and the acquirer's conformity (Ley 29623). */
  conformity: [conformityRoutes, acquirerConformityRoutes],
  /** Staff and supplier accounts, and the suppliers' API clients. */
  administration: [userAdminRoutes, apiClientRoutes],
  /** Invoices that arrive in bulk: the zip batches. */
  intake: [intakeBatchRoutes],
  /** The lists' files. */
  exports: [exportRoutes],
  /** What every screen uses: health, session, reference data, conversations, notifications. */
  platform: [systemRoutes, sessionRoutes, referenceRoutes, conversationRoutes, notificationRoutes],
} as const satisfies Record<string, readonly Record<string, RouteDef>[]>;

export type RouteArea = keyof typeof ROUTE_AREAS;

/** The area of a route of the manifest: the one whose groups hold it. */
export function areaOf(route: RouteDef): RouteArea {
  const area = (Object.keys(ROUTE_AREAS) as RouteArea[]).find((name) =>
    ROUTE_AREAS[name].some((group) => Object.values(group).includes(route)),
  );
  if (!area) throw new Error(`La ruta ${route.id} no pertenece a ninguna área del manifiesto`);
  return area;
}

export type Routes = typeof routes;
export type RouteId = keyof Routes;
export const ROUTES: readonly RouteDef[] = Object.values(routes);

type Infer<T> = T extends z.ZodMiniType ? z.output<T> : undefined;
type InferIn<T> = T extends z.ZodMiniType ? z.input<T> : undefined;
export type RoutePath<R extends RouteDef> = Infer<R['request']['path']>;
export type RouteQuery<R extends RouteDef> = Infer<R['request']['query']>;
export type RouteQueryInput<R extends RouteDef> = InferIn<R['request']['query']>;
export type RouteBody<R extends RouteDef> = Infer<R['request']['body']>;
export type RouteBodyInput<R extends RouteDef> = InferIn<R['request']['body']>;
export type RouteResponse<R extends RouteDef> = z.output<R['response']>;

/** Fills a route's {placeholders}: buildPath(routes.getInvoice, {supplierId, ...}). */
export function buildPath(def: RouteDef, params: Record<string, string> = {}): string {
  return def.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${def.id}`);
    return encodeURIComponent(value);
  });
}

export { ErrorBody };
