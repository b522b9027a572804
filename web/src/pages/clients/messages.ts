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
  retry: 'Reintentar',
  filterPlaceholder: 'Buscar por nombre o RUC',
  filterLabel: 'Buscar sociedades por nombre o RUC',
  filterClear: 'Borrar búsqueda',
  matches: (count: number) => (count === 1 ? '1 coincidencia' : `${count} coincidencias`),
  taxId: 'RUC',
  address: 'Dirección',
  logo: (name: string) => `Logo de ${name}`,
} as const;
