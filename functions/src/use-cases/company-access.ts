import { ForbiddenError, NotFoundError, type Client } from '@portal/shared';
import type { Caller } from '../http/caller.js';
import type { ClientRepository } from '../repositories/clients.js';

/** Whether the caller may act for a company: an admin for any, everyone else only for its taxId list. */
export function canActFor(caller: Pick<Caller, 'level' | 'taxIds'>, taxId: string): boolean {
  return caller.level === 'ADMIN' || caller.taxIds.includes(taxId);
}

/**
 * The tenant rule of every call that names a company of the group (client, acquirer, taxId):
 * 1. a company outside the caller's taxId list is refused (403 ERROR_COMPANY_NOT_ALLOWED), unless
 *    the caller is an admin;
 * 2. a company that is not one of the group's answers 404 ERROR_CLIENT_NOT_FOUND.
 * The refusal comes first, so a manager learns nothing about companies it does not manage.
 * Answers the company, for callers that need its name.
 */
export async function assertCompanyAccess(
  caller: Pick<Caller, 'level' | 'taxIds'>,
  taxId: string,
  clients: Pick<ClientRepository, 'get'>,
): Promise<Client> {
  if (!canActFor(caller, taxId)) throw new ForbiddenError('ERROR_COMPANY_NOT_ALLOWED', { companyId: taxId });
  const client = await clients.get(taxId);
  if (!client) throw new NotFoundError('ERROR_CLIENT_NOT_FOUND', { companyId: taxId });
  return client;
}
