import { ConflictError, NotFoundError, parseTaxIds } from '@portal/shared';
import { MOCK_SUPPLIERS } from './directory';
import { paginate, signedIn, type MockRoutes } from './context';

function findUser<T extends { id: string }>(users: readonly T[], userId: string): T {
  const user = users.find((each) => each.id === userId);
  if (!user) throw new NotFoundError('ERROR_USER_NOT_FOUND');
  return user;
}

/** The administrators' routes: suppliers' and staff users, the audit trail and the API clients. */
export const ADMIN_ROUTES = {
  listExternalUsers: (context) => {
    const needle = context.query.query?.toLowerCase() ?? '';
    const found = context.world.externalUsers.filter(
      (user) =>
        user.email.startsWith(needle) ||
        (user.taxId ?? '').startsWith(needle) ||
        (user.companyName ?? '').toLowerCase().startsWith(needle),
    );
    return paginate(found, context.query);
  },
  createExternalUser: (context) => {
    const { body } = context;
    if (context.world.externalUsers.some((user) => user.email === body.email)) {
      throw new ConflictError('ERROR_USER_ALREADY_EXISTS');
    }
    const user = {
      id: `ext-${body.taxId}-${context.world.externalUsers.length + 1}`,
      taxId: body.taxId,
      firstName: body.firstName,
      lastName: body.lastName,
      role: 'SUPPLIER' as const,
      companyName: body.businessName,
      email: body.email,
      enabled: true,
      status: 'FORCE_CHANGE_PASSWORD',
      createdAt: context.now.toISOString(),
      canReceiveEmails: body.canReceiveEmails,
    };
    context.world.externalUsers.unshift(user);
    return { ...user, invitationSent: true };
  },
  resetExternalUserPassword: (context) => {
    const user = findUser(context.world.externalUsers, context.path.userId);
    return user.status === 'FORCE_CHANGE_PASSWORD'
      ? { delivery: 'INVITATION', message: `Se reenvió la invitación a ${user.email}.` }
      : { delivery: 'RESET_CODE', message: `Se envió a ${user.email} el correo para restablecer su contraseña.` };
  },
  disableExternalUser: (context) =>
    Object.assign(findUser(context.world.externalUsers, context.path.userId), { enabled: false }),
  enableExternalUser: (context) =>
    Object.assign(findUser(context.world.externalUsers, context.path.userId), { enabled: true }),
  whitelistNotifications: (context) =>
    Object.assign(findUser(context.world.externalUsers, context.path.userId), {
      canReceiveEmails: context.query.include,
    }),
  whitelistNotificationsBulk: (context) => ({
    results: context.body.userIds.map((userId) => {
      const user = context.world.externalUsers.find((each) => each.id === userId);
      if (!user)
        return { userId, ok: false, error: { code: 'ERROR_USER_NOT_FOUND', message: 'Usuario no encontrado.' } };
      user.canReceiveEmails = context.query.include;
      return { userId, ok: true };
    }),
  }),

  listInternalUsers: (context) => paginate(context.world.internalUsers, context.query),
  assignClientToInternalUser: (context) => {
    const user = findUser(context.world.internalUsers, context.path.userId);
    const companies = new Set([...parseTaxIds(user.taxId), context.query.client]);
    return Object.assign(user, { taxId: [...companies].join(',') });
  },
  unassignClientFromInternalUser: (context) => {
    const user = findUser(context.world.internalUsers, context.path.userId);
    const companies = parseTaxIds(user.taxId).filter((taxId) => taxId !== context.query.client);
    return Object.assign(user, { taxId: companies.length > 0 ? companies.join(',') : null });
  },
  listAuditEvents: (context) => {
    const { userId } = context.query;
    return paginate(
      context.world.auditEvents.filter((event) => !userId || event.target.userId === userId),
      context.query,
    );
  },

  listApiClients: (context) => ({ items: context.world.apiClients }),
  createApiClient: (context) => {
    const supplier = MOCK_SUPPLIERS.find((each) => each.taxId === context.body.taxId);
    if (!supplier) throw new NotFoundError('ERROR_API_CLIENT_UNKNOWN_SUPPLIER', { ruc: context.body.taxId });
    const client = {
      clientId: `mock${String(context.world.apiClients.length + 1).padStart(22, '0')}`,
      name: context.body.name,
      taxId: supplier.taxId,
      supplierName: supplier.name,
      scopes: [...new Set(context.body.scopes)],
      createdAt: context.now.toISOString(),
      createdBy: signedIn(context.persona).user.email,
      revokedAt: null,
      revokedBy: null,
    };
    context.world.apiClients.unshift(client);
    return {
      ...client,
      clientSecret: 'secreto-de-demostracion-que-solo-se-muestra-una-vez',
      tokenUrl: 'https://auth.proveedores.example.pe/oauth2/token',
    };
  },
  revokeApiClient: (context) => {
    const client = context.world.apiClients.find((each) => each.clientId === context.path.clientId);
    if (!client) throw new NotFoundError('ERROR_API_CLIENT_NOT_FOUND');
    if (client.revokedAt !== null) throw new ConflictError('ERROR_API_CLIENT_ALREADY_REVOKED');
    return Object.assign(client, {
      revokedAt: context.now.toISOString(),
      revokedBy: signedIn(context.persona).user.email,
    });
  },
} satisfies Partial<MockRoutes>;
