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
const MANAGER: readonly Level[] = ['MANAGER'];
const ADMIN: readonly Level[] = ['ADMIN'];

// Each import() is its own chunk: a screen's code loads when it is first visited.
const LoginPage = lazy(() => import('../pages/login/login-page'));
const ManagerForbiddenPage = lazy(() => import('../pages/forbidden/manager-forbidden-page'));
const SupplierForbiddenPage = lazy(() => import('../pages/forbidden/supplier-forbidden-page'));
const GuestForbiddenPage = lazy(() => import('../pages/forbidden/guest-forbidden-page'));
const InvoicesPage = lazy(() => import('../pages/invoices/invoices-page'));
const DashboardPage = lazy(() => import('../pages/dashboard/dashboard-page'));
const ServiceSheetsPage = lazy(() => import('../pages/conformity/service-sheets-page'));
const MaterialDocsPage = lazy(() => import('../pages/conformity/material-docs-page'));
const ClientsPage = lazy(() => import('../pages/clients/clients-page'));
const EmployeesPage = lazy(() => import('../pages/employees/employees-page'));
const SuppliersPage = lazy(() => import('../pages/suppliers/suppliers-page'));
const NotificationsPage = lazy(() => import('../pages/notifications/notifications-page'));

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
  { path: '/dashboard', component: DashboardPage, levels: MANAGER, nav: { label: messages.nav.dashboard } },
  {
    path: '/service-sheets',
    component: ServiceSheetsPage,
    levels: MANAGER,
    nav: { label: messages.nav.serviceSheets },
  },
  {
    path: '/material-docs',
    component: MaterialDocsPage,
    levels: MANAGER,
    nav: { label: messages.nav.materialDocs },
  },
  { path: '/clients', component: ClientsPage, levels: ADMIN, nav: { label: messages.nav.clients } },
  { path: '/employees', component: EmployeesPage, levels: ADMIN, nav: { label: messages.nav.employees } },
  // Spec §2 declares no role for /suppliers; its calls are the administrator's (docs/decisions.md).
  { path: '/suppliers', component: SuppliersPage, levels: ADMIN, nav: { label: messages.nav.suppliers } },
  {
    path: '/notifications',
    component: NotificationsPage,
    levels: ALL_SIGNED_IN,
    nav: { label: messages.nav.notifications },
  },
];

/** The menu of a level: the routes with a navigation label that the level may open. */
export function navigationFor(level: Level): { label: string; href: string }[] {
  return APP_ROUTES.flatMap((route) =>
    route.nav && route.levels?.includes(level) ? [{ label: route.nav.label, href: route.nav.href ?? route.path }] : [],
  );
}
