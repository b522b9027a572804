import { API_CLIENT_SCOPE_LABELS, type ApiClientScope } from '@portal/shared';

/** The 'Clientes de API' screen: suppliers' systems that call the API with their own credentials. */
export const apiClientsMessages = {
  title: 'Clientes de API',
  description:
    'Credenciales para que el sistema de un proveedor registre y consulte sus comprobantes por el API, solo con su RUC.',
  loading: 'Cargando clientes de API…',
  empty: 'Aún no hay clientes de API.',
  create: 'Crear cliente de API',
  revoke: 'Revocar',
  columns: {
    name: 'Nombre',
    supplier: 'Proveedor',
    clientId: 'ID de cliente',
    scopes: 'Permisos',
    created: 'Creado',
    status: 'Estado',
  },
  active: 'Activo',
  revokedOn: (when: string) => `Revocado el ${when}`,
  scope: (scope: ApiClientScope) => API_CLIENT_SCOPE_LABELS[scope],
  /** The table's short names of the permissions (the form shows the long ones). */
  scopeShort: { 'invoices.submit': 'Registrar', 'invoices.read': 'Consultar' } as Record<ApiClientScope, string>,
  form: {
    header: 'Crear cliente de API',
    confirm: 'Crear',
    taxId: 'RUC del proveedor',
    taxIdHint: 'El cliente solo podrá actuar por este RUC.',
    taxIdInvalid: 'Ingresa los 11 dígitos del RUC.',
    name: 'Nombre',
    nameHint: 'Para reconocerlo en la lista, por ejemplo «ERP de facturación».',
    nameRequired: 'Ingresa un nombre.',
    scopes: 'Permisos',
    scopesRequired: 'Elige al menos un permiso.',
  },
  secret: {
    header: 'Cliente de API creado',
    warning:
      'Copia el secreto ahora: es la única vez que el portal lo muestra. Si se pierde, revoca este cliente y crea otro.',
    clientId: 'ID de cliente',
    clientSecret: 'Secreto del cliente',
    tokenUrl: 'Dirección para obtener tokens',
    copy: 'Copiar',
    copied: 'Copiado',
    copyFailed: 'No se pudo copiar',
    close: 'Ya lo guardé',
    closeIcon: 'Cerrar',
  },
  revokeConfirm: {
    header: 'Revocar cliente de API',
    confirm: 'Revocar',
    question: (name: string, supplier: string) =>
      `¿Revocar «${name}» de ${supplier}? Su secreto y los tokens ya emitidos dejan de funcionar de inmediato. No se puede deshacer.`,
    done: (name: string) => `Se revocó el cliente de API «${name}».`,
  },
} as const;
