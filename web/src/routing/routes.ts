import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { Level } from '@portal/shared';
import { messages } from '../messages';
import { PATHS } from './guard';

/** What the side navigation shows for a route. */
export interface NavEntry {
  readonly label: string;
  /** Where the item links; defaults to the route's path. */
  readonly href?: string;
}

export interface AppRoute {
  readonly path: string;
  readonly component: LazyExoticComponent<ComponentType>;
  /** Levels allowed through the navigation guard; null for public screens (no guard, no shell). */
  readonly levels: readonly Level[] | null;
  readonly nav?: NavEntry;
}

const ALL_SIGNED_IN: readonly Level[] = ['ADMIN', 'MANAGER', 'SUPPLIER'];

// Each import() is its own chunk: a screen's code loads when it is first visited.
const LoginPage = lazy(() => import('../pages/login/login-page'));
const ManagerForbiddenPage = lazy(() => import('../pages/forbidden/manager-forbidden-page'));
const SupplierForbiddenPage = lazy(() => import('../pages/forbidden/supplier-forbidden-page'));
const GuestForbiddenPage = lazy(() => import('../pages/forbidden/guest-forbidden-page'));
const InvoicesPage = lazy(() => import('../pages/invoices/invoices-page'));

/**
 * The screens of spec §2 that exist so far. A new screen is one line here (its path, component,
 * levels and, when it belongs in the menu, its navigation label).
 */
export const APP_ROUTES: readonly AppRoute[] = [
  { path: PATHS.login, component: LoginPage, levels: null },
  { path: PATHS.managerForbidden, component: ManagerForbiddenPage, levels: null },
  { path: PATHS.supplierForbidden, component: SupplierForbiddenPage, levels: null },
  { path: PATHS.forbidden, component: GuestForbiddenPage, levels: null },
  { path: PATHS.home, component: InvoicesPage, levels: ALL_SIGNED_IN },
  {
    path: '/invoices',
    component: InvoicesPage,
    levels: ALL_SIGNED_IN,
    nav: { label: messages.nav.invoices },
  },
];

/** The menu of a level: the routes with a navigation label that the level may open. */
export function navigationFor(level: Level): { label: string; href: string }[] {
  return APP_ROUTES.flatMap((route) =>
    route.nav && route.levels?.includes(level) ? [{ label: route.nav.label, href: route.nav.href ?? route.path }] : [],
  );
}
