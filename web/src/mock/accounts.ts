import { type ApiClient, type AuditEvent, type ExternalUser, type InternalUser } from '@portal/shared';
import { MOCK_CLIENTS, MOCK_SUPPLIERS, STAFF_NAMES, daysBefore, timestampOf } from './directory';

/** The mock's user accounts (suppliers' and staff), API clients and audit trail. */

function emailOf(fullName: string, domain: string): string {
  const [first = 'usuario', , last = 'portal'] = fullName
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(' ');
  return `${first}.${last}@${domain}`;
}

export function buildExternalUsers(today: Date): ExternalUser[] {
  return MOCK_SUPPLIERS.map((supplier, index) => ({
    id: `ext-${supplier.taxId}`,
    taxId: supplier.taxId,
    firstName: ['Rosa', 'Pedro', 'Ana', 'Luis', 'Milagros', 'César', 'Rosa Elena'][index] ?? 'Contacto',
    lastName: ['Paredes', 'Córdova', 'Espinoza', 'Rojas', 'Ñique', 'Vargas', 'Quispe Mamani'][index] ?? 'Proveedor',
    role: 'SUPPLIER',
    companyName: supplier.name,
    email: `facturacion${index + 1}@${supplier.name.split(' ')[0]!.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()}.pe`,
    enabled: index !== 5,
    status: index === 4 ? 'FORCE_CHANGE_PASSWORD' : 'CONFIRMED',
    createdAt: timestampOf(daysBefore(today, 120 + index * 9), 10),
    canReceiveEmails: index !== 3,
  }));
}

export function buildInternalUsers(today: Date): InternalUser[] {
  return STAFF_NAMES.map((fullName, index) => {
    const [firstName = '', second = '', ...rest] = fullName.split(' ');
    const companies = MOCK_CLIENTS.filter((_, c) => (index + c) % 3 !== 2);
    return {
      id: `int-${index + 1}`,
      taxId: index === 5 ? null : companies.map((client) => client.taxId).join(','),
      firstName: `${firstName} ${second}`,
      lastName: rest.join(' '),
      role: index === 0 ? 'ADMIN' : 'MANAGER',
      companyName: index === 5 ? null : (companies[0]?.name ?? null),
      email: emailOf(fullName, 'grupoandino.pe'),
      enabled: true,
      status: 'EXTERNAL_PROVIDER',
      createdAt: timestampOf(daysBefore(today, 300 - index * 20), 9),
    };
  });
}

export function buildApiClients(today: Date): ApiClient[] {
  const by = emailOf(STAFF_NAMES[0], 'grupoandino.pe');
  const [first, second] = MOCK_SUPPLIERS;
  return [
    {
      clientId: '4k2f9q1m7c8d0s5t3v6b1n2x9z',
      name: 'ERP de facturación',
      taxId: first!.taxId,
      supplierName: first!.name,
      scopes: ['invoices.submit', 'invoices.read'],
      createdAt: timestampOf(daysBefore(today, 12), 10),
      createdBy: by,
      revokedAt: null,
      revokedBy: null,
    },
    {
      clientId: '7h3j5k8l2m4n6p9q1r0s2t4u6v',
      name: 'Integración anterior',
      taxId: second!.taxId,
      supplierName: second!.name,
      scopes: ['invoices.read'],
      createdAt: timestampOf(daysBefore(today, 40), 9),
      createdBy: by,
      revokedAt: timestampOf(daysBefore(today, 5), 16),
      revokedBy: by,
    },
  ];
}

export function buildAuditEvents(externalUsers: readonly ExternalUser[], today: Date): AuditEvent[] {
  const actor = { id: 'int-1', email: emailOf(STAFF_NAMES[0], 'grupoandino.pe') };
  const actions = ['USER_CREATED', 'PASSWORD_RESET_STARTED', 'EMAIL_NOTIFICATIONS_CHANGED', 'USER_DISABLED'] as const;
  return externalUsers.slice(0, 8).map((user, index) => {
    const action = actions[index % actions.length]!;
    return {
      id: `aud-${String(index + 1).padStart(3, '0')}`,
      occurredAt: timestampOf(daysBefore(today, index * 3), 11),
      action,
      actor,
      target: { userId: user.id, email: user.email },
      before: action === 'EMAIL_NOTIFICATIONS_CHANGED' ? { canReceiveEmails: true } : null,
      after: action === 'EMAIL_NOTIFICATIONS_CHANGED' ? { canReceiveEmails: false } : null,
      txId: `mock-tx-${String(index + 1).padStart(4, '0')}`,
    };
  });
}

/** A fresh world, the same for the same day: the handlers change it (approvals, new invoices) until reset. */
