import { createElement, lazy, useState, type ComponentType } from 'react';
import { matchPath } from 'react-router-dom';
import type { Level } from '@portal/shared';
import { INVOICE_DETAIL_ROUTE } from '../layout/header/invoice-links';
import { messages } from '../messages';
import { audienceOf } from '../session/audience';
import { PATHS } from './guard';

/** What the side navigation shows for a route. */
export interface NavEntry {
  /** Its text, or the text for each level when the screen's title depends on it. */
  readonly label: string | ((level: Level) => string);
  /** Where the item links; defaults to the route's path. */
  readonly href?: string;
}

export interface AppRoute {
  readonly path: string;
  readonly component: ComponentType;
  /** Starts loading the component's chunk (the same import React.lazy makes when it first renders). */
  readonly load: () => Promise<unknown>;
  /** Levels allowed through the navigation guard; null for public screens (no guard, no shell). */
  readonly levels: readonly Level[] | null;
  readonly nav?: NavEntry;
}

const ALL_SIGNED_IN: readonly Level[] = ['ADMIN', 'MANAGER', 'SUPPLIER'];
const MANAGER: readonly Level[] = ['MANAGER'];
const ADMIN: readonly Level[] = ['ADMIN'];

/**
 * A screen loaded on demand: each import() is its own chunk, loaded when the screen first renders (React.lazy,
 * under the layouts' Suspense) unless `load` already brought it, in which case the screen renders at once.
 */
function screen(importScreen: () => Promise<{ default: ComponentType }>) {
  let loaded: ComponentType | null = null;
  const load = () =>
    importScreen().then((module) => {
      loaded = module.default;
      return module;
    });
  const Lazy = lazy(load);
  function Screen() {
    // Chosen once per mount, so a screen never switches component (and state) under the user.
    const [component] = useState<ComponentType>(() => loaded ?? Lazy);
    return createElement(component);
  }
  return { component: Screen, load };
}

const LoginPage = screen(() => import('../pages/login/login-page'));
const ManagerForbiddenPage = screen(() => import('../pages/forbidden/manager-forbidden-page'));
const SupplierForbiddenPage = screen(() => import('../pages/forbidden/supplier-forbidden-page'));
const GuestForbiddenPage = screen(() => import('../pages/forbidden/guest-forbidden-page'));
const InvoicesPage = screen(() => import('../pages/invoices/invoices-page'));
const DashboardPage = screen(() => import('../pages/dashboard/dashboard-page'));
const ServiceSheetsPage = screen(() => import('../pages/conformity/service-sheets-page'));
const MaterialDocsPage = screen(() => import('../pages/conformity/material-docs-page'));
const ClientsPage = screen(() => import('../pages/clients/clients-page'));
const EmployeesPage = screen(() => import('../pages/employees/employees-page'));
const SuppliersPage = screen(() => import('../pages/suppliers/suppliers-page'));
const ApiClientsPage = screen(() => import('../pages/api-clients/api-clients-page'));
const NotificationsPage = screen(() => import('../pages/notifications/notifications-page'));

/**
 * The screens of spec §2 that exist so far. A new screen is one line here (its path, component,
 * levels and, when it belongs in the menu, its navigation label).
 */
export const APP_ROUTES: readonly AppRoute[] = [
  { path: PATHS.login, ...LoginPage, levels: null },
  { path: PATHS.managerForbidden, ...ManagerForbiddenPage, levels: null },
  { path: PATHS.supplierForbidden, ...SupplierForbiddenPage, levels: null },
  { path: PATHS.forbidden, ...GuestForbiddenPage, levels: null },
  { path: PATHS.home, ...InvoicesPage, levels: ALL_SIGNED_IN },
  {
    path: '/invoices',
    ...InvoicesPage,
    levels: ALL_SIGNED_IN,
    // Named as the screen's title: a supplier's own invoices, or those staff receive.
    nav: { label: (level) => (audienceOf(level) === 'staff' ? messages.nav.staffInvoices : messages.nav.invoices) },
  },
  // One invoice's address (the e-mails link here): the invoices screen with its detail open.
  { path: INVOICE_DETAIL_ROUTE, ...InvoicesPage, levels: ALL_SIGNED_IN },
  { path: '/dashboard', ...DashboardPage, levels: MANAGER, nav: { label: messages.nav.dashboard } },
  {
    path: '/service-sheets',
    ...ServiceSheetsPage,
    levels: MANAGER,
    nav: { label: messages.nav.serviceSheets },
  },
  {
    path: '/material-docs',
    ...MaterialDocsPage,
    levels: MANAGER,
    nav: { label: messages.nav.materialDocs },
  },
  { path: '/clients', ...ClientsPage, levels: ADMIN, nav: { label: messages.nav.clients } },
  { path: '/employees', ...EmployeesPage, levels: ADMIN, nav: { label: messages.nav.employees } },
  // Spec §2 declares no role for /suppliers; its calls are the administrator's (docs/adr/0005-user-administration.md).
  { path: '/suppliers', ...SuppliersPage, levels: ADMIN, nav: { label: messages.nav.suppliers } },
  // Suppliers' systems on the API (docs/integrators.md).
  { path: '/api-clients', ...ApiClientsPage, levels: ADMIN, nav: { label: messages.nav.apiClients } },
  {
    path: '/notifications',
    ...NotificationsPage,
    levels: ALL_SIGNED_IN,
    nav: { label: messages.nav.notifications },
  },
];

/**
 * Starts loading the screen at `pathname` (the route that matches it), so that its chunk arrives while the
 * guard still checks the session instead of after it.
 */
export function preloadScreen(pathname: string): void {
  APP_ROUTES.find((route) => matchPath(route.path, pathname))
    ?.load()
    .catch(() => undefined);
}

/** The menu of a level: the routes with a navigation label that the level may open. */
export function navigationFor(level: Level): { label: string; href: string }[] {
  return APP_ROUTES.flatMap((route) =>
    route.nav && route.levels?.includes(level)
      ? [
          {
            label: typeof route.nav.label === 'string' ? route.nav.label : route.nav.label(level),
            href: route.nav.href ?? route.path,
          },
        ]
      : [],
  );
}
