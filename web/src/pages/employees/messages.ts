import { sentenceEnd } from '@portal/shared';

/** Texts of the Employees screen ('Usuarios internos', spec §2). */
export const employeesMessages = {
  title: 'Usuarios internos',
  description:
    'Personal del grupo que ingresa con su cuenta corporativa. Asigna o retira las sociedades con las que trabaja cada gestor.',
  tableLabel: 'Usuarios internos',
  loading: 'Cargando usuarios...',
  empty: 'No hay usuarios internos para mostrar.',
  noCompanies: 'Sin sociedades asignadas',
  columns: {
    user: 'Usuario',
    company: 'Sociedad',
    role: 'Rol',
    status: 'Estado',
    reassign: 'Reasignar',
    history: 'Historial',
  },
  reassign: {
    action: 'Reasignar',
    actionFor: (name: string) => `Reasignar sociedades de ${name}`,
    title: (name: string) => `Reasignar sociedades de ${name}`,
    description: (email: string) =>
      `Las sociedades que ve ${email} en el portal. Los cambios se aplican en su próximo ingreso.`,
    assignedLabel: 'Sociedades asignadas',
    noneAssigned: 'No tiene sociedades asignadas: al ingresar verá la página de acceso restringido.',
    removeLabel: (company: string) => `Retirar ${company}`,
    pickLabel: 'Sociedad por asignar',
    pickPlaceholder: 'Elige una sociedad',
    pickNoneLeft: 'Ya tiene todas las sociedades del grupo',
    clientsLoading: 'Cargando sociedades...',
    clientsError: 'No se pudieron cargar las sociedades.',
    add: 'Agregar',
    pending: (adds: number, removes: number) => `Cambios por guardar: ${adds} por asignar y ${removes} por retirar.`,
    save: 'Guardar cambios',
    saved: (name: string) => sentenceEnd(`Se actualizaron las sociedades de ${name}`),
  },
} as const;
