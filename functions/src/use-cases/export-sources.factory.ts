import { userAdminDepsWith } from './user-admin-wiring.js';

/**
 * The suppliers' accounts as the administration lists them (the same use case, not a copy of its filters), for the
 * exports worker: it only lists, so it is given no mailer (a listing sends nothing) and no e-mail grant.
 */
export const supplierAccountsDeps = userAdminDepsWith({
  mailer: { send: () => Promise.reject(new Error('the exports worker sends no e-mail')) },
  portalUrl: null,
});
