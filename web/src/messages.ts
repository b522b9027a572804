import { APP_TITLE, APP_VERSION, CLIENT_MESSAGES } from '@portal/shared';

/**
 * Every text the web app shows that is not a shared label (domain.ts) or a catalogue message
 * (errors/catalogue.ts). Screens read from here so the wording lives in one place.
 */
export const messages = {
  app: {
    title: APP_TITLE,
    version: `v${APP_VERSION}`,
    loading: 'Cargando...',
    configError: 'No se pudo cargar la configuración del portal. Recarga la página o inténtalo más tarde.',
    pageLoadError: 'No se pudo cargar esta pantalla. Recarga la página e inténtalo nuevamente.',
    reload: 'Recargar',
    notFoundTitle: 'Página no encontrada',
    notFoundText: 'La dirección que buscas no existe en el portal.',
    goHome: 'Ir al inicio',
  },
  session: {
    checking: 'Verificando tu sesión...',
    userFetchFailed: CLIENT_MESSAGES.userFetchFailed,
    headerSession: CLIENT_MESSAGES.headerSession,
    retry: 'Reintentar',
  },
  table: {
    retry: 'Reintentar',
    pagination: {
      nextPageLabel: 'Página siguiente',
      previousPageLabel: 'Página anterior',
      pageLabel: (page: number) => `Página ${page}`,
    },
  },
  dialog: {
    cancel: 'Cancelar',
    close: 'Cerrar',
  },
  /** The before → after of an audit record (an account's history, an invoice's Historial). */
  changes: {
    changesTo: 'cambia a',
    noDetail: 'Sin cambios de datos',
    added: (values: string) => `+ ${values}`,
    removed: (values: string) => `− ${values}`,
    none: '—',
  },
  feedback: {
    dismiss: 'Cerrar mensaje',
    understood: 'Entendido',
  },
  login: {
    title: 'PORTAL DE PROVEEDORES',
    subtitle: 'Ingresa tus datos para iniciar sesión',
    emailLabel: 'Correo electrónico',
    emailPlaceholder: 'nombre@empresa.com',
    passwordLabel: 'Contraseña',
    submit: 'Iniciar sesión',
    corporate: 'Ingresar con cuenta corporativa',
    corporateCancelled: 'Se canceló el ingreso con cuenta corporativa.',
    corporateDisabled: 'Tu usuario está deshabilitado en el portal. Comunícate con el administrador.',
    corporateNotConfigured:
      'El ingreso con cuenta corporativa no está configurado en este entorno. Ingresa con tu correo y contraseña.',
    forgotPassword: '¿Olvidaste tu contraseña?',
    badCredentials: CLIENT_MESSAGES.badCredentials,
    failed: CLIENT_MESSAGES.loginFailed,
    emailRequired: 'Ingresa tu correo electrónico.',
    emailInvalid: 'Ingresa un correo electrónico válido.',
    passwordRequired: 'Ingresa tu contraseña.',
    or: 'o',
    /** An e-mail of the group's corporate domain typed into the password form. */
    useCorporate: (domain: string) =>
      `Las cuentas corporativas (@${domain}) no tienen contraseña en el portal: ingresa con el botón «Ingresar con cuenta corporativa».`,
  },
  /** The login on the mock provider (docs/web-mock.md): a role to play instead of an account. */
  mockLogin: {
    notice: 'Proveedor simulado: los datos son de ejemplo y nada sale del navegador. Elige con qué rol ingresar.',
    enterAs: (role: string) => `Ingresar como ${role}`,
  },
  resetPassword: {
    title: 'Restablecer contraseña',
    description: 'Ingresa el correo electrónico de tu cuenta y te enviaremos las instrucciones.',
    emailLabel: 'Correo electrónico',
    submit: 'Enviar',
    cancel: 'Volver a iniciar sesión',
    success: 'Recibirás un correo electrónico con detalles para restablecer tu contraseña.',
    failed: 'No ha sido posible solicitar el restablecimiento de la contraseña. Inténtalo más tarde.',
    tooManyAttempts: 'Superaste el número de intentos permitidos. Inténtalo más tarde.',
    haveCode: 'Ya tengo un código',
    codeTitle: 'Ingresa el código',
    codeDescription: 'Escribe el código que te enviamos por correo electrónico y elige tu nueva contraseña.',
    codeLabel: 'Código de verificación',
    codeRequired: 'Ingresa el código que recibiste por correo electrónico.',
    confirm: 'Cambiar contraseña',
    codeMismatch: 'El código no es válido. Revisa el correo electrónico más reciente.',
    codeExpired: 'El código venció. Solicita uno nuevo.',
    done: 'Tu contraseña fue actualizada. Ya puedes iniciar sesión con ella.',
    confirmFailed: 'No ha sido posible cambiar la contraseña. Inténtalo más tarde.',
    corporate: (domain: string) =>
      `Las cuentas corporativas (@${domain}) no tienen contraseña en el portal: vuelve e ingresa con el botón «Ingresar con cuenta corporativa». Tu contraseña es la de tu cuenta corporativa.`,
  },
  newPassword: {
    title: 'Crea tu contraseña',
    description: 'Es tu primer ingreso al portal: reemplaza la contraseña temporal que recibiste por una propia.',
    passwordLabel: 'Nueva contraseña',
    repeatLabel: 'Repite la nueva contraseña',
    constraint: 'Al menos 12 caracteres, con mayúsculas, minúsculas, números y símbolos.',
    tooWeak: 'La contraseña debe tener al menos 12 caracteres, con mayúsculas, minúsculas, números y símbolos.',
    mismatch: 'Las contraseñas no coinciden.',
    submit: 'Guardar e ingresar',
    rejected: 'La contraseña no cumple la política de seguridad del portal.',
    expired: 'La sesión para crear tu contraseña venció. Vuelve a iniciar sesión con la contraseña temporal.',
  },
  shell: {
    closePanel: 'Cerrar panel',
    closeNavigation: 'Cerrar menú',
    openNavigation: 'Abrir menú',
    notifications: 'Mensajes',
    navigationHeader: 'Menú',
    userMenuDescription: (level: string) => `Rol: ${level}`,
    signOut: 'Cerrar sesión',
    version: (version: string) => `Versión ${version}`,
    companyLabel: 'Sociedad activa',
    companyMenu: (company: string) => `Sociedad: ${company}`,
    overflowMenuTrigger: 'Opciones',
    overflowMenuTitle: 'Todas las opciones',
    overflowMenuBack: 'Volver',
    overflowMenuDismiss: 'Cerrar',
    skipToContent: 'Ir al contenido principal',
  },
  nav: {
    invoices: 'Mis comprobantes',
    /** The same screen for staff, named as its title (invoicesMessages.staffTitle). */
    staffInvoices: 'Comprobantes recibidos',
    dashboard: 'Panel del gestor',
    serviceSheets: 'Conformidades - HES',
    materialDocs: 'Conformidades - MIGO',
    clients: 'Sociedades',
    employees: 'Usuarios internos',
    suppliers: 'Usuarios proveedores',
    apiClients: 'Clientes de API',
    notifications: 'Notificaciones',
  },
  forbidden: {
    managerTitle: 'Acceso restringido',
    managerText:
      'Tu usuario de gestor no tiene sociedades asignadas. Solicita al administrador del portal que te asigne una sociedad para continuar.',
    supplierTitle: 'Acceso restringido',
    supplierText:
      'Tu usuario de proveedor no tiene un RUC asociado. Comunícate con el área de soporte a proveedores para completar el registro de tu cuenta.',
    guestTitle: 'Sesión inválida',
    guestText:
      'No tienes permisos para acceder a esta sección o tu sesión ya no es válida. Vuelve a iniciar sesión para continuar.',
    signOut: 'Cerrar sesión',
    goToLogin: 'Ir a iniciar sesión',
  },
  errors: {
    transactionSuffix: (txId: string) => `(código de transacción: ${txId})`,
  },
  /** The date field typed dd/mm/aa with its calendar (components/date-input.tsx). */
  dateInput: {
    placeholder: 'dd/mm/aa',
    openCalendar: (selected: string | null) =>
      selected ? `Elegir fecha en el calendario; la fecha elegida es ${selected}` : 'Elegir fecha en el calendario',
    closeCalendar: 'Cerrar calendario',
    calendar: 'Calendario',
    today: 'Hoy',
    nextMonth: 'Mes siguiente',
    previousMonth: 'Mes anterior',
  },
} as const;
