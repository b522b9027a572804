import {
  APP_VERSION,
  EMPTY_DASHBOARD,
  dashboardDelta,
  BadRequestError,
  DEFAULT_PREFERENCES,
  preferencesView,
  storedPreferencesOf,
  type StoredPreferences,
  buildOpenApi,
  parseTaxIds,
  type RouteDef,
} from '@portal/shared';
import type { MockWorld } from './data';
import { MOCK_CLIENTS, MOCK_EMPLOYEES, MOCK_OFFICES, MOCK_SUPPLIERS } from './directory';
import { HOUR_MS, MOCK_SIGNED_IN_HOURS, paginate, signedIn, type MockContext, type MockRoutes } from './context';
import { visibleInvoices } from './invoices';
import { ADMIN_ROUTES } from './admin-routes';
import { CONFORMITY_ROUTES } from './conformity-routes';
import { INVOICE_ROUTES } from './invoice-routes';
import { JOB_ROUTES } from './job-routes';

export type { MockContext, MockRoutes } from './context';

/** Each world's notification preferences by persona (ADR 0050), as the API keeps them per user. */
const mockPreferences = new WeakMap<MockWorld, Map<string, StoredPreferences>>();
function preferencesOfPersona(context: MockContext<RouteDef>) {
  const persona = signedIn(context.persona);
  const audience = persona.user.level === 'SUPPLIER' ? ('supplier' as const) : ('client' as const);
  const byPersona = mockPreferences.get(context.world) ?? new Map<string, StoredPreferences>();
  mockPreferences.set(context.world, byPersona);
  return { audience, byPersona, id: persona.id };
}

/** The feed of the people concerned: notifications about the invoices the caller sees. */
function notificationsOf(context: MockContext<RouteDef>) {
  const visible = new Set(visibleInvoices(context).map((invoice) => `${invoice.supplierId}/${invoice.id}`));
  return context.world.notifications.filter(
    (notification) =>
      !notification.reference ||
      visible.has(`${notification.reference.issuerTaxId}/${notification.reference.invoiceId}`),
  );
}

const health = (context: MockContext<RouteDef>) => ({
  status: 'ok' as const,
  version: APP_VERSION,
  time: context.now.toISOString(),
});

export const MOCK_ROUTES: MockRoutes = {
  healthcheck: health,
  heartbeat: health,
  openapi: () => buildOpenApi(),

  getCurrentUser: (context) => signedIn(context.persona).user,
  verifySession: (context) => {
    const { user } = signedIn(context.persona);
    return {
      valid: true,
      expiresAt: new Date(context.now.getTime() + MOCK_SIGNED_IN_HOURS * HOUR_MS).toISOString(),
      level: user.level,
      activeCompany: context.company,
      companies: parseTaxIds(user.taxId),
    };
  },

  listClients: () => ({ items: [...MOCK_CLIENTS] }),

  ...INVOICE_ROUTES,

  getDashboard: (context) => {
    const { client, period } = context.query;
    const [month, year] = period?.split('/') ?? [];
    const invoices = context.world.invoices.filter(
      (invoice) => invoice.client === client && (!period || invoice.issuedAt.startsWith(`${year}-${month}`)),
    );
    // The counters move as the API's do (shared/src/rules/dashboard.ts): each invoice counted as if just written.
    const counts = { ...EMPTY_DASHBOARD };
    for (const invoice of invoices) {
      for (const [counter, by] of Object.entries(dashboardDelta(null, invoice))) {
        counts[counter as keyof typeof counts] += by;
      }
    }
    return { ...counts, latePostings: 0, failedPostings: 0 };
  },

  listEmployees: (context) => {
    const needle = context.query.q?.toLowerCase() ?? '';
    const employees = MOCK_EMPLOYEES[context.query.acquirer] ?? [];
    return { items: employees.filter((employee) => employee.fullName.toLowerCase().includes(needle)) };
  },
  listOfficeLocations: (context) => ({ items: [...(MOCK_OFFICES[context.query.taxId] ?? [])] }),
  ...CONFORMITY_ROUTES,

  searchSuppliers: (context) => {
    const needle = context.query.query.toLowerCase();
    const found = MOCK_SUPPLIERS.filter(
      (supplier) => supplier.taxId.startsWith(needle) || supplier.name.toLowerCase().includes(needle),
    );
    return paginate(found, context.query);
  },

  listNotifications: (context) => ({ items: notificationsOf(context) }),
  markNotificationsAsRead: (context) => {
    const upTo = context.body.upTo ?? context.now.toISOString();
    const unread = notificationsOf(context).filter(
      (notification) => !notification.isRead && Date.parse(notification.registeredAt) <= Date.parse(upTo),
    );
    unread.forEach((notification) => (notification.isRead = true));
    return { updated: unread.length };
  },

  getNotificationPreferences: (context) => {
    const { audience, byPersona, id } = preferencesOfPersona(context);
    return { items: preferencesView(audience, byPersona.get(id) ?? DEFAULT_PREFERENCES) };
  },
  putNotificationPreferences: (context) => {
    const { audience, byPersona, id } = preferencesOfPersona(context);
    const stored = storedPreferencesOf(audience, context.body);
    if ('reason' in stored) throw new BadRequestError('ERROR_INVALID_PARAMETER', { ...stored });
    byPersona.set(id, stored);
    return { items: preferencesView(audience, stored) };
  },

  ...JOB_ROUTES,
  ...ADMIN_ROUTES,
};
