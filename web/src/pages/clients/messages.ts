import { counted } from '@portal/shared';

/** The texts of the clients screen (spec §2 "Clients", title 'Sociedades'). */
export const clientsMessages = {
  title: 'Sociedades',
  description: 'Las sociedades del grupo que reciben comprobantes en el portal.',
  counter: (shown: number, total: number) => (shown === total ? `(${total})` : `(${shown}/${total})`),
  cardsLabel: 'Sociedades del grupo',
  loading: 'Cargando sociedades...',
  empty: 'No hay sociedades registradas.',
  noMatch: 'Ninguna sociedad coincide con la búsqueda.',
  clearFilter: 'Limpiar búsqueda',
  filterPlaceholder: 'Buscar por nombre o RUC',
  filterLabel: 'Buscar sociedades por nombre o RUC',
  filterClear: 'Borrar búsqueda',
  matches: (count: number) => counted(count, { one: 'coincidencia', other: 'coincidencias' }),
  taxId: 'RUC',
  address: 'Dirección',
  logo: (name: string) => `Logo de ${name}`,
  payments: 'Pagos a proveedores',
  paymentRunDays: (days: readonly number[]) => {
    const named = [...days].sort((a, b) => a - b).map((day) => (day > 28 ? `${day} (o fin de mes)` : String(day)));
    const list = named.length > 1 ? `${named.slice(0, -1).join(', ')} y ${named.at(-1)}` : named[0];
    return `Paga los días ${list} de cada mes`;
  },
  noPaymentRun: 'Paga en la fecha de vencimiento',
  retentionAgent: 'Agente de retención del IGV (3 %)',
} as const;
