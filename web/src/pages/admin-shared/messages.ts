/** Texts shared by the user administration screens (Employees and Suppliers, spec §2). */
export const adminMessages = {
  refresh: 'Actualizar',
  cancel: 'Cancelar',
  closeModal: 'Cerrar ventana',
  errorIcon: 'Error',
  account: {
    enabled: 'Habilitado',
    disabled: 'Deshabilitado',
  },
  history: {
    action: 'Historial',
    actionFor: (name: string) => `Historial de ${name}`,
    description: (name: string, email: string) =>
      `Cambios hechos por los administradores a la cuenta de ${name} (${email}), del más reciente al más antiguo.`,
    tableLabel: 'Historial de cambios de la cuenta',
    loading: 'Cargando historial...',
    empty: 'No hay cambios registrados para esta cuenta.',
    columns: {
      when: 'Fecha y hora',
      who: 'Realizado por',
      action: 'Acción',
      change: 'Antes → después',
    },
    /** The attributes an audit event may carry, as people call them. */
    fields: {
      taxIdCompanies: 'Sociedades',
      taxIdRuc: 'RUC',
      canReceiveEmails: 'Recepción de correos',
      enabled: 'Cuenta',
      status: 'Estado de la cuenta',
      email: 'Correo electrónico',
      firstName: 'Nombres',
      lastName: 'Apellidos',
      businessName: 'Razón social',
    } as Readonly<Record<string, string>>,
    values: {
      receptionOn: 'Activada',
      receptionOff: 'Desactivada',
      enabled: 'Habilitada',
      disabled: 'Deshabilitada',
      yes: 'Sí',
      no: 'No',
      none: '—',
    },
  },
} as const;
