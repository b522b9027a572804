import {
  DEMO_CLIENTS,
  DEMO_GROUPS,
  DEMO_NO_HABIDO_SUPPLIER,
  DEMO_SUPPLIERS,
  withCheckDigit,
  type Client,
  type Employee,
  type OfficeLocation,
  type SupplierProfile,
} from '@portal/shared';

/** The mock's group: its companies, their offices and staff, and the suppliers. */

export const MOCK_GROUP = DEMO_GROUPS;

/** The local stage's demo group (shared/src/data/demo-group.ts), so that the mock reads like the stage. */
export const MOCK_CLIENTS: readonly Client[] = DEMO_CLIENTS;

const profile = ({ taxId, name }: SupplierProfile): SupplierProfile => ({ taxId, name });
const [industriales, ferreteria, consultores, quispe] = DEMO_SUPPLIERS.map(profile);

/** The demo group's suppliers, and two more so that the lists fill a page. */
export const MOCK_SUPPLIERS: readonly SupplierProfile[] = [
  industriales!,
  ferreteria!,
  consultores!,
  profile(DEMO_NO_HABIDO_SUPPLIER),
  { taxId: withCheckDigit('2053318904'), name: 'Agroexportadora Valle de Ica S.A.' },
  { taxId: withCheckDigit('2055702369'), name: 'Tecnologías Andinas del Perú S.A.C.' },
  quispe!,
];

export const STAFF_NAMES = [
  'María Fernanda Salazar Ríos',
  'José Luis Huamán Torres',
  'Carmen Rosa Villanueva Paz',
  'Jorge Alberto Chávez Medina',
  'Lucía Esther Gamarra Soto',
  'Ricardo Manuel Flores Ccori',
] as const;

const PLACES = [
  { location: 'Lima', office: 'Sede Central' },
  { location: 'Arequipa', office: 'Oficina Sur' },
  { location: 'Trujillo', office: 'Oficina Norte' },
] as const;

export const MOCK_OFFICES: Readonly<Record<string, readonly OfficeLocation[]>> = Object.fromEntries(
  MOCK_CLIENTS.map((client, c) => [
    client.taxId,
    PLACES.map((place, p) => ({ id: `OF${c + 1}0${p + 1}`, location: place.location, office: place.office })),
  ]),
);

export const MOCK_EMPLOYEES: Readonly<Record<string, readonly Employee[]>> = Object.fromEntries(
  MOCK_CLIENTS.map((client, c) => [
    client.taxId,
    STAFF_NAMES.slice(c, c + 4).map((fullName, e) => ({
      id: String(70010 + c * 10 + e),
      fullName,
      office: PLACES[e % PLACES.length]!.office,
    })),
  ]),
);

export const DAY_MS = 86_400_000;

/** A date `daysAgo` days before `today` (yyyy-mm-dd). */
export function daysBefore(today: Date, daysAgo: number): string {
  return new Date(today.getTime() - daysAgo * DAY_MS).toISOString().slice(0, 10);
}

export function timestampOf(date: string, hour: number): string {
  return `${date}T${String(hour).padStart(2, '0')}:15:00.000-05:00`;
}
