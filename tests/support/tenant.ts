import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@portal/shared';
import {
  DEMO_PARTIES,
  buildWorld as buildAnyWorld,
  stageParties,
  tenantParties,
  type DemoIdentity,
  type SeedWorld,
} from '../../local/seed/seed-data.js';
import { stageOutputs } from './stage-outputs.js';

export {
  CORPORATE_EMAIL_DOMAIN,
  DEMO_CREDIT_DETRACTION,
  ORIGINAL_NOT_IN_PORTAL,
  ORIGINAL_NOT_IN_PORTAL_ORDER,
  type SeedConformityDocument,
  type SeedPurchaseOrder,
  type SeedSupplier,
  type SeedWorld,
} from '../../local/seed/seed-data.js';

/**
 * The world of this test file on the shared stage: its tenant's companies, offices, staff, suppliers and accounts
 * (tests/setup/tenant.ts claims one before the file is imported; 0, the demo world itself, outside such a run).
 * A file imports them from here, never from local/seed/seed-data.ts, so that it reads and changes only its own
 * invoices while other files run beside it.
 */
export const TENANT = Number(process.env.PORTAL_TEST_TENANT ?? 0);

const parties = tenantParties(TENANT);

export const CLIENTS = parties.clients;
export const SUPPLIERS = parties.suppliers;
export const NO_HABIDO_SUPPLIER = parties.noHabidoSupplier;
export const OFFICE_LOCATIONS = parties.officeLocations;
export const EMPLOYEES = parties.employees;
export const DEMO_USERS: readonly DemoIdentity[] = parties.users;

/** The tenant's seeded world (invoices, orders, HES and MIGO), as the stage seeded it. */
export function buildWorld(today?: Date): SeedWorld {
  return buildAnyWorld(today, parties);
}

/** This tenant's account that plays the demo account `username` (proveedor2@demo.pe → proveedor2.t3@demo.pe). */
export function tenantUsername(username: string): string {
  return TENANT === 0 ? username : username.replace('@', `.t${TENANT}@`);
}

/** Every company of the stage: the demo world's and each test tenant's (GET /clients lists them all to anyone). */
export function stageCompanies(): readonly Client[] {
  return stageParties(stageOutputs().tenants).flatMap((world) => world.clients);
}

/** The demo world's RUCs and names, each beside this tenant's. */
const RENAMES: readonly (readonly [string, string])[] = [
  ...DEMO_PARTIES.clients.flatMap((client, c) => [
    [client.taxId, CLIENTS[c]!.taxId] as const,
    [client.name, CLIENTS[c]!.name] as const,
  ]),
  ...[...DEMO_PARTIES.suppliers, DEMO_PARTIES.noHabidoSupplier].flatMap((supplier, s) => {
    const own = [...SUPPLIERS, NO_HABIDO_SUPPLIER][s]!;
    return [[supplier.taxId, own.taxId] as const, [supplier.name, own.name] as const];
  }),
];

/** A text that names the demo world's companies and suppliers (a corpus document), naming this tenant's instead. */
export function asTenant(text: string): string {
  return TENANT === 0 ? text : RENAMES.reduce((renamed, [demo, own]) => renamed.replaceAll(demo, own), text);
}

const FIXTURES_DIR = path.resolve(import.meta.dirname, '../fixtures');

/**
 * A file of tests/fixtures (the UBL and CDR corpus), as this tenant's supplier would send it: the demo world's RUCs
 * and names in it are the tenant's.
 */
export function tenantFixture(relativePath: string): string {
  return asTenant(readFileSync(path.join(FIXTURES_DIR, relativePath), 'utf8'));
}
