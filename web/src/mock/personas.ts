import type { SessionUser } from '@portal/shared';
import { mockSessionOfToken } from '../session/mock-session';
import { MOCK_CLIENTS, MOCK_GROUP, MOCK_SUPPLIERS } from './directory';

/** Someone to sign in as on the mock provider: one per role, and the two the guard stops (spec §6). */
export interface MockPersona {
  readonly id: string;
  /** What the login's role picker shows (Spanish). */
  readonly label: string;
  readonly description: string;
  readonly user: SessionUser;
}

const [supplier] = MOCK_SUPPLIERS;
const [andina, minera] = MOCK_CLIENTS;
if (!supplier || !andina || !minera) throw new Error('The mock world needs a supplier and two clients');

const companyOf = (taxId: string, name: string) => ({ taxId, name });

export const MOCK_PERSONAS: readonly MockPersona[] = [
  {
    id: 'proveedor',
    label: 'Proveedor',
    description: `Rosa Paredes, de ${supplier.name}: envía y sigue sus comprobantes.`,
    user: {
      id: 'mock-proveedor',
      firstName: 'Rosa',
      lastName: 'Paredes',
      group: null,
      email: 'facturacion1@servicios.pe',
      level: 'SUPPLIER',
      taxId: supplier.taxId,
      companies: [companyOf(supplier.taxId, supplier.name)],
    },
  },
  {
    id: 'gestor',
    label: 'Gestor',
    description: `José Luis Huamán, gestor de ${andina.name} y ${minera.name}: revisa, aprueba y rechaza.`,
    user: {
      id: 'mock-gestor',
      firstName: 'José Luis',
      lastName: 'Huamán Torres',
      group: MOCK_GROUP.staff,
      email: 'jose.huaman@grupoandino.pe',
      level: 'MANAGER',
      taxId: `${andina.taxId},${minera.taxId}`,
      companies: [companyOf(andina.taxId, andina.name), companyOf(minera.taxId, minera.name)],
    },
  },
  {
    id: 'administrador',
    label: 'Administrador',
    description: 'María Fernanda Salazar, administradora: sociedades, usuarios y todos los comprobantes.',
    user: {
      id: 'mock-administrador',
      firstName: 'María Fernanda',
      lastName: 'Salazar Ríos',
      group: MOCK_GROUP.admins,
      email: 'maria.salazar@grupoandino.pe',
      level: 'ADMIN',
      taxId: MOCK_CLIENTS.map((client) => client.taxId).join(','),
      companies: MOCK_CLIENTS.map((client) => companyOf(client.taxId, client.name)),
    },
  },
  {
    id: 'gestor-sin-sociedad',
    label: 'Gestor sin sociedad',
    description: 'Un gestor sin sociedades asignadas: ve la página de acceso restringido.',
    user: {
      id: 'mock-gestor-sin-sociedad',
      firstName: 'Lucía Esther',
      lastName: 'Gamarra Soto',
      group: MOCK_GROUP.staff,
      email: 'lucia.gamarra@grupoandino.pe',
      level: 'MANAGER',
      taxId: null,
      companies: [],
    },
  },
  {
    id: 'proveedor-sin-ruc',
    label: 'Proveedor sin RUC',
    description: 'Una cuenta de proveedor sin RUC: ve la página de acceso restringido.',
    user: {
      id: 'mock-proveedor-sin-ruc',
      firstName: 'Pedro',
      lastName: 'Córdova',
      group: null,
      email: 'pedro.cordova@demo.pe',
      level: 'SUPPLIER',
      taxId: null,
      companies: [],
    },
  },
];

export function mockPersona(id: string | null): MockPersona | null {
  return MOCK_PERSONAS.find((persona) => persona.id === id) ?? null;
}

/** The persona a mock bearer token names (session/mock-session.ts hands them out). */
export function personaOfToken(authorization: string | null): MockPersona | null {
  return mockPersona(mockSessionOfToken(authorization));
}
