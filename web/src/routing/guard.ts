import { parseTaxIds, type Level, type SessionUser } from '@portal/shared';

export const PATHS = {
  home: '/',
  login: '/login',
  managerForbidden: '/manager/forbidden',
  supplierForbidden: '/supplier/forbidden',
  forbidden: '/forbidden',
} as const;

/**
 * The navigation guard of spec §4, as a decision: where to send the user instead, or null to proceed.
 * `user` is null when nobody is signed in.
 */
export function guardRedirect(user: SessionUser | null, required: readonly Level[]): string | null {
  if (!user) return PATHS.login;
  if (!required.includes(user.level)) return PATHS.login;
  const hasTaxId = parseTaxIds(user.taxId).length > 0;
  if (!hasTaxId && user.level === 'MANAGER') return PATHS.managerForbidden;
  if (!hasTaxId && user.level === 'SUPPLIER') return PATHS.supplierForbidden;
  return null;
}
