import type { Locator, Page } from 'playwright-core';
import { routes, type InvoiceSummary, type Notification } from '@portal/shared';
import { call, idTokenOf } from './api.js';
import { demoUser } from './stage.js';
import { appUrl, settledInvoices, startSignedIn } from './web.js';

/** What the header, the notifications feed and the chat assistant say (web/src/layout/header, chat). */
export const HEADER_TEXT = {
  staffSearch: 'Buscar comprobantes o proveedores',
  supplierSearch: 'Buscar comprobantes por número, RUC o razón social',
  openSearch: 'Abrir búsqueda',
  /** The search's landmark, around its box. */
  searchLabel: 'Buscar en el portal',
  /** The dropdown's last option, which Enter does too: the invoices list filtered by the text. */
  allResults: (text: string) => `Ver todos los resultados de "${text}"`,
  notifications: /^Notificaciones/,
  markAsRead: 'Marcar como leídas',
  seeAll: 'Ver todas las notificaciones',
  noNotifications: 'No tienes notificaciones recientes.',
  notificationsError: 'Hubo un error al cargar tus notificaciones. Por favor intenta luego.',
  legend: 'Leyenda de estados',
  moreOptions: 'Opciones',
  notificationsTitle: 'Notificaciones',
  markAllAsRead: 'Marcar todas como leídas',
  openChat: 'Abrir el Asistente Know-How',
  chatTitle: 'Asistente Know-How',
  chatInput: 'Escribe tu pregunta',
  closeChat: 'Cerrar el asistente',
} as const;

type Role = Parameters<typeof demoUser>[0];

/** A demo account signed in (startSignedIn) on the invoices screen, where every journey of the header starts. */
export async function signedIn(page: Page, role: Role): Promise<void> {
  await startSignedIn(page, demoUser(role));
  await settledInvoices(page);
}

/** An ID token of a demo account, for preparing and checking through the API. */
export function tokenOf(role: Role): Promise<string> {
  const user = demoUser(role);
  return idTokenOf(user.username, user.password);
}

/** The header's notifications utility (its name carries the unread count). */
export function notificationsButton(page: Page): Locator {
  return page.getByRole('button', { name: HEADER_TEXT.notifications });
}

/** The caller's notification feed through the API. */
export async function feedOf(role: Role): Promise<Notification[]> {
  const answer = await call<{ items: Notification[] }>(routes.listNotifications, { token: await tokenOf(role) });
  if (answer.status !== 200) throw new Error(`GET /notifications answered ${answer.status}`);
  return answer.body.items;
}

/** The invoices the caller reaches with a filter, through the API (the truth the UI must show). */
export async function invoicesOf(role: Role, query: Record<string, string | number>): Promise<InvoiceSummary[]> {
  const answer = await call<{ items: InvoiceSummary[] }>(routes.listInvoices, { token: await tokenOf(role), query });
  if (answer.status !== 200) throw new Error(`GET /invoices answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body.items;
}

/** Every invoice the list gives for the query, page after page (other test files add hundreds to the demo data). */
export async function allInvoicesOf(role: Role, query: Record<string, string | number>): Promise<InvoiceSummary[]> {
  const token = await tokenOf(role);
  const items: InvoiceSummary[] = [];
  let cursor: string | undefined;
  do {
    const answer = await call<{ items: InvoiceSummary[]; nextCursor?: string | null }>(routes.listInvoices, {
      token,
      query: { limit: 100, ...query, ...(cursor ? { cursor } : {}) },
    });
    if (answer.status !== 200)
      throw new Error(`GET /invoices answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    items.push(...answer.body.items);
    cursor = answer.body.nextCursor ?? undefined;
  } while (cursor);
  return items;
}

/** Opens a signed-in path directly (the session lives in the browser profile). */
export async function visit(page: Page, pathname: string): Promise<void> {
  await page.goto(appUrl(pathname));
}

/** Opens the chat assistant from the header: its panel, once shown. */
export async function openChat(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: HEADER_TEXT.openChat }).click();
  const panel = page.getByRole('dialog', { name: HEADER_TEXT.chatTitle });
  await panel.waitFor();
  return panel;
}

/** Asks the open assistant a question with the keyboard: the text of the answer it gets. */
export async function askAssistant(page: Page, question: string): Promise<string> {
  const answers = page.getByTestId('chat-answer');
  const before = await answers.count();
  const input = page.getByRole('textbox', { name: HEADER_TEXT.chatInput });
  await input.fill(question);
  await input.press('Enter');
  await answers.nth(before).waitFor({ timeout: 30_000 });
  return (await answers.nth(before).textContent()) ?? '';
}
