import {
  DEMO_CLIENTS,
  DEMO_GROUPS,
  DEMO_NO_HABIDO_SUPPLIER,
  DEMO_SUPPLIERS,
  type DemoSupplier,
  type Client,
  type Employee,
  type OfficeLocation,
  withCheckDigit,
} from '@portal/shared';
import type { DemoAccount } from '../runtime/outputs.js';

/**
 * Who the demo world is about: the group's companies with their offices and staff, the suppliers, the demo accounts,
 * and each test tenant's copy of them with RUCs, names and addresses of its own.
 */

export const ADMIN_GROUP = DEMO_GROUPS.admins;
export const STAFF_GROUP = DEMO_GROUPS.staff;
/** The corporate identity provider's name in the user pool (the AWS stages' default too). */
export const LOCAL_SSO_PROVIDER = 'Corporativo';
/**
 * The demo group's corporate e-mail domain: its staff sign in with the corporate button, and the login
 * tells whoever types such an address into the password form (config.json `corporateEmailDomains`).
 * Suppliers keep addresses of their own (@demo.pe).
 */
export const CORPORATE_EMAIL_DOMAIN = 'grupoandino.pe';
/** Staff addresses of earlier demo worlds, removed from a kept user pool (runtime/provision/identity.ts). */
export const RETIRED_DEMO_USERNAMES = [
  'gestor@demo.pe',
  'admin@demo.pe',
  'gestor.sinruc@demo.pe',
  'sofia.paredes@demo.pe',
] as const;

/** The group's companies (shared with the web app's mock provider). */
export const CLIENTS: readonly Client[] = DEMO_CLIENTS;

export type SeedSupplier = DemoSupplier;

/** The group's suppliers (shared with the web app's mock provider). */
export const SUPPLIERS: readonly SeedSupplier[] = DEMO_SUPPLIERS;

/**
 * A supplier SUNAT answers as NO HABIDO (the RUC risk gate): the SUNAT simulator starts with its RUC so, and
 * its seeded invoices carry that answer; a manager cannot approve them, an administrator can with a reason.
 */
export const NO_HABIDO_SUPPLIER: SeedSupplier = DEMO_NO_HABIDO_SUPPLIER;

/** Each company's offices: Lima, Arequipa and Trujillo. */
function officeLocationsOf(clients: readonly Client[]): Record<string, OfficeLocation[]> {
  return Object.fromEntries(
    clients.map((client, c) => [
      client.taxId,
      [
        { id: `OF-${c + 1}01`, location: 'Lima', office: 'Sede Central' },
        { id: `OF-${c + 1}02`, location: 'Arequipa', office: 'Oficina Sur' },
        { id: `OF-${c + 1}03`, location: 'Trujillo', office: 'Oficina Norte' },
      ],
    ]),
  );
}

export const OFFICE_LOCATIONS: Record<string, OfficeLocation[]> = officeLocationsOf(CLIENTS);

const STAFF_NAMES = [
  'Carmen Rosa Gutiérrez Salas',
  'Luis Alberto Paredes Huamán',
  'María Fernanda Torres Vílchez',
  'Jorge Enrique Chávez Ramos',
];

/** Each company's employees (the responsibles of its invoices), one per office in turn. */
function employeesOf(
  clients: readonly Client[],
  offices: Record<string, OfficeLocation[]>,
): Record<string, Employee[]> {
  return Object.fromEntries(
    clients.map((client, c) => [
      client.taxId,
      STAFF_NAMES.map((fullName, e) => ({
        id: `E${c + 1}${String(e + 1).padStart(3, '0')}`,
        fullName,
        office: offices[client.taxId]![e % 3]!.office,
      })),
    ]),
  );
}

export const EMPLOYEES: Record<string, Employee[]> = employeesOf(CLIENTS, OFFICE_LOCATIONS);

/**
 * Demo accounts, one per role plus the two without taxId. Internal staff are corporate SSO users
 * (spec §6): they sign in at the local corporate IdP, whose directory is built from these entries.
 */
export interface DemoIdentity extends DemoAccount {
  readonly firstName: string;
  readonly lastName: string;
  readonly federated?: {
    readonly providerName: string;
    /** The subject the corporate IdP gives the user. */
    readonly subject: string;
    readonly groups: readonly string[];
    /** false: not in the user pool until the first corporate sign-in creates it. */
    readonly provisioned?: boolean;
  };
  /** Whether the account gets e-mail notifications (the Suppliers screen's "email reception"). */
  readonly receivesEmails: boolean;
}

const PASSWORD = 'Demo#Portal2026';

/**
 * The demo accounts of a world: the demo's own (tenant 0), or a test tenant's, whose addresses and corporate subjects
 * carry its number (proveedor.t2@demo.pe, gestor.t2@grupoandino.pe) and whose RUCs are its own.
 */
function demoUsersOf(tenant: number, clients: readonly Client[], suppliers: readonly SeedSupplier[]): DemoIdentity[] {
  const address = (email: string) => (tenant === 0 ? email : email.replace('@', `.t${tenant}@`));
  const subject = (id: string) => (tenant === 0 ? id : id.replace('corp-', `corp-t${tenant}-`));
  return [
    {
      username: address('proveedor@demo.pe'),
      password: PASSWORD,
      receivesEmails: true,
      role: 'SUPPLIER',
      signIn: 'password',
      taxId: suppliers[0]!.taxId,
      firstName: 'Ana',
      lastName: 'Salazar',
      description: `Proveedor ${suppliers[0]!.name}`,
    },
    {
      username: address('proveedor2@demo.pe'),
      password: PASSWORD,
      receivesEmails: false,
      role: 'SUPPLIER',
      signIn: 'password',
      taxId: suppliers[1]!.taxId,
      firstName: 'Pedro',
      lastName: 'Rojas',
      description: `Proveedor ${suppliers[1]!.name}`,
    },
    {
      username: address('gestor@grupoandino.pe'),
      password: PASSWORD,
      receivesEmails: true,
      role: 'MANAGER',
      signIn: 'corporate',
      taxId: `${clients[0]!.taxId},${clients[1]!.taxId}`,
      firstName: 'Carmen',
      lastName: 'Gutiérrez',
      federated: { providerName: LOCAL_SSO_PROVIDER, subject: subject('corp-000101'), groups: [STAFF_GROUP] },
      description: `Gestor de ${clients[0]!.name} y ${clients[1]!.name}`,
    },
    {
      username: address('admin@grupoandino.pe'),
      password: PASSWORD,
      receivesEmails: true,
      role: 'ADMIN',
      signIn: 'corporate',
      taxId: null,
      firstName: 'Jorge',
      lastName: 'Chávez',
      federated: {
        providerName: LOCAL_SSO_PROVIDER,
        subject: subject('corp-000102'),
        groups: [ADMIN_GROUP, STAFF_GROUP],
      },
      description: 'Administrador del portal (todas las sociedades)',
    },
    {
      username: address('proveedor.sinruc@demo.pe'),
      password: PASSWORD,
      receivesEmails: true,
      role: 'SUPPLIER',
      signIn: 'password',
      taxId: null,
      firstName: 'Lucía',
      lastName: 'Mendoza',
      description: 'Proveedor sin RUC asignado (página de acceso denegado)',
    },
    {
      username: address('gestor.sinruc@grupoandino.pe'),
      password: PASSWORD,
      receivesEmails: true,
      role: 'MANAGER',
      signIn: 'corporate',
      taxId: null,
      firstName: 'Raúl',
      lastName: 'Vega',
      federated: { providerName: LOCAL_SSO_PROVIDER, subject: subject('corp-000103'), groups: [STAFF_GROUP] },
      description: 'Gestor sin sociedades asignadas (página de acceso denegado)',
    },
    {
      username: address('sofia.paredes@grupoandino.pe'),
      password: PASSWORD,
      receivesEmails: true,
      role: 'MANAGER',
      signIn: 'corporate',
      taxId: null,
      firstName: 'Sofía',
      lastName: 'Paredes',
      federated: {
        providerName: LOCAL_SSO_PROVIDER,
        subject: subject('corp-000104'),
        groups: [STAFF_GROUP],
        provisioned: false,
      },
      description: 'Personal corporativo que aún no ingresó: su primer ingreso crea la cuenta (sin sociedades)',
    },
  ];
}

export const DEMO_USERS: DemoIdentity[] = demoUsersOf(0, CLIENTS, SUPPLIERS);

/** Who a world is about: the group's companies with their offices and staff, its suppliers and its accounts. */
export interface DemoParties {
  /** 0 for the demo world; a test tenant's number otherwise (LOCAL_TEST_TENANTS). */
  readonly tenant: number;
  readonly clients: readonly Client[];
  readonly suppliers: readonly SeedSupplier[];
  readonly noHabidoSupplier: SeedSupplier;
  readonly officeLocations: Record<string, OfficeLocation[]>;
  readonly employees: Record<string, Employee[]>;
  readonly users: readonly DemoIdentity[];
}

export const DEMO_PARTIES: DemoParties = {
  tenant: 0,
  clients: CLIENTS,
  suppliers: SUPPLIERS,
  noHabidoSupplier: NO_HABIDO_SUPPLIER,
  officeLocations: OFFICE_LOCATIONS,
  employees: EMPLOYEES,
  users: DEMO_USERS,
};

/**
 * A RUC of a test tenant's world: 20 (or 10 for a person) then 8, the tenant's two digits, the party's kind and
 * index, and zeros, with its check digit. No demo party and no RUC a test writes by hand starts so.
 */
function tenantRuc(original: string, tenant: number, kind: number, index: number): string {
  return withCheckDigit(`${original.slice(0, 2)}8${String(tenant).padStart(2, '0')}${kind}${index}000`);
}

/**
 * A test tenant's world (tenant ≥ 1): the demo's companies, suppliers and accounts, each with a RUC, a name (the
 * demo's, with T and the tenant's number before its last word) and an address of its own, so that the test files sharing one stage, each on its
 * own tenant, never read or change each other's invoices. Tenant 0 is the demo world itself.
 */
export function tenantParties(tenant: number): DemoParties {
  if (tenant === 0) return DEMO_PARTIES;
  if (!Number.isInteger(tenant) || tenant < 0 || tenant > 99) throw new Error(`No test tenant ${tenant}`);
  // The tenant's mark before the last word (the legal form): no tenant's name holds the demo's, or another's.
  const named = (name: string) => {
    const words = name.split(' ');
    return [...words.slice(0, -1), `T${tenant}`, words.at(-1)].join(' ');
  };
  const clients = CLIENTS.map((client, c) => ({
    ...client,
    taxId: tenantRuc(client.taxId, tenant, 1, c),
    name: named(client.name),
  }));
  const suppliers = SUPPLIERS.map((supplier, s) => ({
    ...supplier,
    taxId: tenantRuc(supplier.taxId, tenant, 2, s),
    name: named(supplier.name),
  }));
  const noHabidoSupplier = {
    ...NO_HABIDO_SUPPLIER,
    taxId: tenantRuc(NO_HABIDO_SUPPLIER.taxId, tenant, 3, 0),
    name: named(NO_HABIDO_SUPPLIER.name),
  };
  const officeLocations = officeLocationsOf(clients);
  return {
    tenant,
    clients,
    suppliers,
    noHabidoSupplier,
    officeLocations,
    employees: employeesOf(clients, officeLocations),
    users: demoUsersOf(tenant, clients, suppliers),
  };
}

/** The worlds of a stage: the demo's, then its test tenants' (LOCAL_TEST_TENANTS, none unless a test run asks). */
export function stageParties(tenants: number): DemoParties[] {
  return Array.from({ length: tenants + 1 }, (_, tenant) => tenantParties(tenant));
}
