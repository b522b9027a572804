import {
  normalizeForSearch,
  type ExternalUser,
  type RouteQuery,
  type Routes,
  type SupplierProfile,
} from '@portal/shared';
import type { Page } from '../../repositories/page.js';
import { CONCURRENCY, mapBounded, poolPage, type UserAdminDeps } from '../user-admin-accounts.js';
import { decodeUserCursor, encodeUserCursor } from '../user-admin-cursor.js';
import type { DirectoryUser } from '../user-admin-ports.js';
import { companyNames, toExternalUser } from './supplier-accounts.js';

/** Supplier profiles one search page resolves to accounts (each a RUC's index read and an AdminGetUser per account). */
export const PROFILES_PER_SEARCH_PAGE = 20;

type ExternalUsersQuery = RouteQuery<Routes['listExternalUsers']>;
type ListDeps = Pick<UserAdminDeps, 'directory' | 'accounts' | 'profiles' | 'supplierSearch'>;

/**
 * Supplier accounts (federated staff are left out). No query: the pool in Cognito's order. With '@': an
 * e-mail prefix (Cognito filter). Digits: a RUC prefix; other text: a business-name prefix — both
 * through the supplier directory and each RUC's account index.
 */
export async function listExternalUsers(deps: ListDeps, query: ExternalUsersQuery): Promise<Page<ExternalUser>> {
  const text = query.query?.trim() ?? '';
  const page = { limit: query.limit, cursor: query.cursor };
  if (text === '' || text.includes('@')) {
    const emailPrefix = text === '' ? undefined : text.toLowerCase();
    const scope = emailPrefix === undefined ? 'external' : `external:email:${emailPrefix}`;
    const { users, nextCursor } = await poolPage(deps, scope, page, (user) => !user.federated, emailPrefix);
    const names = await companyNames(deps, users);
    return { items: users.map((user) => toExternalUser(user, names)), nextCursor };
  }
  if (/^\d+$/.test(text)) {
    return accountsOfSuppliers(deps, `external:ruc:${text}`, page, (p) => deps.supplierSearch.listByRucPrefix(text, p));
  }
  const name = normalizeForSearch(text);
  // Punctuation alone normalizes to nothing; it must not list the whole directory.
  if (!name) return { items: [], nextCursor: null };
  return accountsOfSuppliers(deps, `external:name:${name}`, page, (p) => deps.supplierSearch.listByNamePrefix(name, p));
}

/** Supplier profiles by RUC or name prefix, then their accounts through each RUC's account index. */
async function accountsOfSuppliers(
  deps: ListDeps,
  scope: string,
  page: { limit: number; cursor?: string | undefined },
  search: (page: { limit: number; cursor?: string | undefined }) => Promise<Page<SupplierProfile>>,
): Promise<Page<ExternalUser>> {
  const found = await search({
    limit: Math.min(page.limit, PROFILES_PER_SEARCH_PAGE),
    cursor: decodeUserCursor(scope, page.cursor),
  });
  const indexes = await Promise.all(found.items.map((profile) => deps.accounts.accountsOf(profile.taxId)));
  const ids = [...new Set(indexes.flat().map((account) => account.userId))];
  const users = (await mapBounded(ids, CONCURRENCY, (id) => deps.directory.getUser(id))).filter(
    (user): user is DirectoryUser => user !== null && !user.federated,
  );
  // An account indexed under two ids (its e-mail and its sub) is listed once.
  const unique = [...new Map(users.map((user) => [user.id, user])).values()];
  const names = await companyNames(deps, unique);
  for (const profile of found.items) names.set(profile.taxId, names.get(profile.taxId) ?? profile);
  const order = new Map(found.items.map((profile, i) => [profile.taxId, i]));
  const rank = (user: DirectoryUser) =>
    Math.min(...user.taxIds.map((taxId) => order.get(taxId) ?? Number.MAX_SAFE_INTEGER), Number.MAX_SAFE_INTEGER);
  unique.sort((a, b) => rank(a) - rank(b) || a.email.localeCompare(b.email));
  return {
    items: unique.map((user) => toExternalUser(user, names)),
    nextCursor: encodeUserCursor(scope, found.nextCursor),
  };
}
