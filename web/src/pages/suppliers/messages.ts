import { counted } from '@portal/shared';

const ACCOUNTS = { one: 'cuenta', other: 'cuentas' } as const;
const SUPPLIERS = { one: 'proveedor', other: 'proveedores' } as const;

/** Texts of the Suppliers screen ('Usuarios proveedores', spec §2). */
export const suppliersMessages = {
  title: 'Usuarios proveedores',
  description:
    'Cuentas con las que los proveedores ingresan al portal. Busca por RUC, razón social o correo electrónico.',
  tableLabel: 'Usuarios proveedores',
  loading: 'Cargando usuarios...',
  empty: 'No hay usuarios proveedores para mostrar.',
  noMatch: 'Ningún usuario coincide con la búsqueda.',
  search: {
    placeholder: 'Buscar por RUC, razón social o correo',
    ariaLabel: 'Buscar usuarios proveedores por RUC, razón social o correo electrónico',
    clear: 'Borrar búsqueda',
  },
  columns: {
    user: 'Usuario',
    taxId: 'RUC / ID',
    businessName: 'Razón social',
    role: 'Rol',
    options: 'Opciones',
    reception: 'Recepción de correos',
    status: 'Estado de la cuenta',
  },
  selection: {
    all: 'Seleccionar todos los usuarios de la página',
    one: (email: string) => `Seleccionar a ${email}`,
    group: 'Selección de usuarios',
    count: (count: number) => counted(count, { one: 'seleccionado', other: 'seleccionados' }),
  },
  reception: {
    toggleFor: (email: string) => `Recepción de correos de ${email}`,
    on: (email: string) => `Se activó la recepción de correos de ${email}.`,
    off: (email: string) => `Se desactivó la recepción de correos de ${email}.`,
    bulkOn: 'Activar recepción de correos',
    bulkOff: 'Desactivar recepción de correos',
    bulkNeedsSelection: 'Selecciona uno o más usuarios de la tabla.',
    bulkDone: (include: boolean, count: number) =>
      `Se ${include ? 'activó' : 'desactivó'} la recepción de correos de ${counted(count, ACCOUNTS)}.`,
    bulkFailed: (include: boolean, failures: string) =>
      `No se pudo ${include ? 'activar' : 'desactivar'} la recepción de correos de: ${failures}`,
    failure: (email: string, reason: string) => `${email} (${reason})`,
    /** A bulk change is asked first, naming how many suppliers (and accounts, when a supplier has several) it reaches. */
    bulkConfirm: {
      title: (include: boolean) => (include ? 'Activar recepción de correos' : 'Desactivar recepción de correos'),
      question: (include: boolean, accounts: number, suppliers: number) =>
        `¿${include ? 'Activar' : 'Desactivar'} la recepción de correos para ${
          accounts === suppliers
            ? counted(suppliers, SUPPLIERS)
            : `${counted(accounts, ACCOUNTS)} de ${counted(suppliers, SUPPLIERS)}`
        }?`,
      detail: (include: boolean) =>
        include
          ? 'Recibirán por correo las novedades de sus comprobantes.'
          : 'Dejarán de recibir por correo las novedades de sus comprobantes; las seguirán viendo en el portal.',
      confirm: (include: boolean) => (include ? 'Activar' : 'Desactivar'),
    },
  },
  options: {
    menuFor: (email: string) => `Opciones de ${email}`,
    reset: 'Enviar correo de restablecimiento de contraseña',
    resetDisabled: 'La cuenta está deshabilitada: habilítala primero.',
    disable: 'Deshabilitar',
    enable: 'Habilitar',
    history: 'Historial',
  },
  resetConfirm: {
    title: 'Enviar correo de restablecimiento de contraseña',
    body: (email: string) => `Se enviará a ${email} un correo para restablecer su contraseña.`,
    detail:
      'Si el usuario aún no ingresó al portal, recibirá una nueva invitación con otra contraseña temporal y la anterior dejará de funcionar.',
    confirm: 'Enviar correo',
    sentCode: (email: string) => `Se envió a ${email} un correo con el código para restablecer su contraseña.`,
    sentInvitation: (email: string) =>
      `Se envió a ${email} una nueva invitación con una contraseña temporal, porque aún no había ingresado al portal.`,
  },
  disableConfirm: {
    title: 'Deshabilitar cuenta',
    body: (email: string) => `¿Deshabilitar la cuenta de ${email}?`,
    detail:
      'No podrá iniciar sesión ni recibirá correos del portal hasta que la habilites de nuevo. Su configuración de recepción de correos se conserva.',
    confirm: 'Deshabilitar',
    done: (email: string) => `Se deshabilitó la cuenta de ${email}. Ya no puede iniciar sesión.`,
  },
  enableConfirm: {
    title: 'Habilitar cuenta',
    body: (email: string) => `¿Habilitar la cuenta de ${email}?`,
    detail: 'Podrá volver a iniciar sesión y recibirá correos según su configuración de recepción.',
    confirm: 'Habilitar',
    done: (email: string) => `Se habilitó la cuenta de ${email}. Ya puede iniciar sesión.`,
  },
  create: {
    action: 'Crear proveedor',
    title: 'Crear proveedor',
    description:
      'Se creará la cuenta del proveedor y se le enviará por correo una invitación con una contraseña temporal.',
    email: 'Correo electrónico',
    emailPlaceholder: 'nombre@empresa.com',
    firstName: 'Nombres',
    lastName: 'Apellidos',
    taxId: 'RUC',
    taxIdConstraint: '11 dígitos.',
    businessName: 'Razón social',
    reception: 'Recepción de correos',
    receptionDescription: 'El proveedor recibirá por correo las novedades de sus comprobantes.',
    receptionLabel: 'Activar recepción de correos',
    submit: 'Crear proveedor',
    created: (email: string) => `Se creó la cuenta de ${email} y se le envió la invitación por correo.`,
    createdWithoutInvitation: (email: string) =>
      `Se creó la cuenta de ${email}, pero no se pudo enviar la invitación. Usa la opción 'Enviar correo de restablecimiento de contraseña' para enviarla.`,
    errors: {
      emailRequired: 'Ingresa el correo electrónico.',
      emailInvalid: 'Ingresa un correo electrónico válido.',
      firstNameRequired: 'Ingresa los nombres.',
      lastNameRequired: 'Ingresa los apellidos.',
      businessNameRequired: 'Ingresa la razón social.',
      taxIdRequired: 'Ingresa el RUC.',
      taxIdFormat: 'El RUC debe tener 11 dígitos.',
      tooLong: (max: number) => `Usa como máximo ${max} caracteres.`,
    },
  },
} as const;
