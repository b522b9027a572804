import { describe, expect, it } from 'vitest';
import {
  employeeWordItems,
  keys,
  normalizeForSearch,
  routes,
  withCheckDigit,
  type Employee,
  type RouteDef,
  type SupplierProfile,
} from '@portal/shared';
import { CLIENTS, EMPLOYEES, OFFICE_LOCATIONS, SUPPLIERS } from '../support/tenant.js';
import { call, idTokenOf, type CallResult } from '../support/api.js';
import { table } from '../support/fixtures.js';
import { demoUser } from '../support/stage.js';

/**
 * What a reviewer chooses from (employees, office locations) and the header's supplier search,
 * compared with the demo world. The manager manages CLIENTS[0] and CLIENTS[1]; CLIENTS[2] is not its.
 */
const [FIRST, SECOND, FOREIGN] = [CLIENTS[0]!.taxId, CLIENTS[1]!.taxId, CLIENTS[2]!.taxId];
const UNKNOWN_COMPANY = withCheckDigit('2099999999');

const tokenOf = (role: 'MANAGER' | 'ADMIN') => idTokenOf(demoUser(role).username, demoUser(role).password);

const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);

function expectError(response: CallResult, status: number, code: string, parameters?: Record<string, unknown>) {
  expect({ status: response.status, code: response.body?.errors?.[0]?.code }).toEqual({ status, code });
  if (parameters) expect(response.body.errors[0].parameters).toMatchObject(parameters);
  expect(response.body.txId).toBe(response.requestId);
}

/** Walks every page of a paginated listing as a user paging through it would. */
async function walk<T>(def: RouteDef, token: string, query: Record<string, string | number>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await call(def, { token, query: { ...query, cursor } });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    items.push(...page.body.items);
    cursor = page.body.nextCursor ?? undefined;
    pages += 1;
  } while (cursor && pages < 100);
  return items;
}

describe('GET /employees', () => {
  it("lists a manager's company employees exactly as the company has them", async () => {
    const response = await call(routes.listEmployees, { token: await tokenOf('MANAGER'), query: { acquirer: SECOND } });

    expect(response.status).toBe(200);
    expect([...response.body.items].sort(byId)).toEqual([...EMPLOYEES[SECOND]!].sort(byId));
  });

  it('lets an admin list the employees of any company of the group', async () => {
    const response = await call(routes.listEmployees, { token: await tokenOf('ADMIN'), query: { acquirer: FOREIGN } });

    expect(response.status).toBe(200);
    expect([...response.body.items].sort(byId)).toEqual([...EMPLOYEES[FOREIGN]!].sort(byId));
  });

  it('finds employees by the start of any word of the name, in any order, ignoring accents and case', async () => {
    const token = await tokenOf('MANAGER');
    /** By hand: every word typed starts a word of the name. */
    const expected = (q: string) =>
      EMPLOYEES[FIRST]!.filter((employee) => {
        const words = normalizeForSearch(employee.fullName).split(' ');
        return normalizeForSearch(q)
          .split(' ')
          .every((typed) => words.some((word) => word.startsWith(typed)));
      }).sort(byId);

    for (const [q, count] of [
      ['gutiérrez', 1],
      ['GUTI', 1],
      ['a', 1],
      ['maria', 1],
      ['MARÍA Fer', 1],
      ['torres maría', 1],
      ['ramos', 1],
      ['huaman paredes luis', 1],
      ['r', 2],
      ['carmen torres', 0],
    ] as const) {
      const response = await call(routes.listEmployees, { token, query: { acquirer: FIRST, q } });
      expect(response.status).toBe(200);
      expect(expected(q)).toHaveLength(count);
      expect([...response.body.items].sort(byId)).toEqual(expected(q));
    }
    const nobody = await call(routes.listEmployees, { token, query: { acquirer: FIRST, q: 'zzz' } });
    expect(nobody.body.items).toEqual([]);
  });

  it('leaves out employees who are no longer active, also from the name search', async () => {
    // Prepare: a former employee of the admin's company whose name matches the search.
    const former: Employee = { id: `EX${Date.now()}`, fullName: 'María Inés Former Cáceres', office: 'Sede Central' };
    await table().put({ ...keys.employee(FOREIGN, former.id), ...former, active: false });
    for (const item of employeeWordItems(FOREIGN, { ...former, active: false })) await table().put(item);
    const token = await tokenOf('ADMIN');

    const all = await call(routes.listEmployees, { token, query: { acquirer: FOREIGN } });
    const search = await call(routes.listEmployees, { token, query: { acquirer: FOREIGN, q: 'maria' } });

    expect(all.body.items.map((employee: Employee) => employee.id)).not.toContain(former.id);
    expect(search.body.items).toEqual(
      EMPLOYEES[FOREIGN]!.filter((employee) => normalizeForSearch(employee.fullName).split(' ').includes('maria')),
    );
  });

  it("refuses a manager another company's employees", async () => {
    const response = await call(routes.listEmployees, {
      token: await tokenOf('MANAGER'),
      query: { acquirer: FOREIGN },
    });
    expectError(response, 403, 'ERROR_COMPANY_NOT_ALLOWED', { companyId: FOREIGN });
  });

  it('answers 404 to an admin naming a company outside the group', async () => {
    const response = await call(routes.listEmployees, {
      token: await tokenOf('ADMIN'),
      query: { acquirer: UNKNOWN_COMPANY },
    });
    expectError(response, 404, 'ERROR_CLIENT_NOT_FOUND');
  });

  it('names the missing acquirer', async () => {
    const response = await call(routes.listEmployees, { token: await tokenOf('ADMIN') });
    expectError(response, 400, 'ERROR_MISSING_PARAMETER', { parameter: 'acquirer' });
  });
});

describe('GET /office-locations', () => {
  it("lists a manager's company offices exactly as the company has them", async () => {
    const response = await call(routes.listOfficeLocations, {
      token: await tokenOf('MANAGER'),
      query: { taxId: SECOND },
    });

    expect(response.status).toBe(200);
    expect([...response.body.items].sort(byId)).toEqual([...OFFICE_LOCATIONS[SECOND]!].sort(byId));
  });

  it('lets an admin list the offices of any company of the group', async () => {
    const response = await call(routes.listOfficeLocations, {
      token: await tokenOf('ADMIN'),
      query: { taxId: FOREIGN },
    });

    expect([...response.body.items].sort(byId)).toEqual([...OFFICE_LOCATIONS[FOREIGN]!].sort(byId));
  });

  it("refuses a manager another company's offices, and tells an admin a company is unknown", async () => {
    expectError(
      await call(routes.listOfficeLocations, { token: await tokenOf('MANAGER'), query: { taxId: FOREIGN } }),
      403,
      'ERROR_COMPANY_NOT_ALLOWED',
      { companyId: FOREIGN },
    );
    expectError(
      await call(routes.listOfficeLocations, { token: await tokenOf('ADMIN'), query: { taxId: UNKNOWN_COMPANY } }),
      404,
      'ERROR_CLIENT_NOT_FOUND',
    );
  });
});

describe('GET /suppliers (header search)', () => {
  const profile = ({ taxId, name }: SupplierProfile) => ({ taxId, name });

  it('finds suppliers by RUC prefix', async () => {
    const prefix = SUPPLIERS[1]!.taxId.slice(0, 6);
    const expected = SUPPLIERS.filter((supplier) => supplier.taxId.startsWith(prefix))
      .map(profile)
      .sort((a, b) => a.taxId.localeCompare(b.taxId));
    expect(expected.length).toBeGreaterThan(0);

    const items = await walk<SupplierProfile>(routes.searchSuppliers, await tokenOf('MANAGER'), { query: prefix });

    expect(items).toEqual(expected);
  });

  it('finds suppliers by business-name prefix, ignoring accents and case', async () => {
    const token = await tokenOf('ADMIN');
    const expected = (name: string) =>
      SUPPLIERS.filter((supplier) => normalizeForSearch(supplier.name).startsWith(name))
        .map(profile)
        .sort((a, b) => normalizeForSearch(a.name).localeCompare(normalizeForSearch(b.name)));

    // Other tests add suppliers to the directory (their documents' issuers): every answer matches, in name
    // order, and the seed's matching suppliers are among them.
    for (const [query, folded] of [
      ['FERRETERÍA el', 'ferreteria el'],
      ['quispe', 'quispe'],
    ] as const) {
      const found = await walk<SupplierProfile>(routes.searchSuppliers, token, { query });
      expect(found.every((supplier) => normalizeForSearch(supplier.name).startsWith(folded))).toBe(true);
      const names = found.map((supplier) => normalizeForSearch(supplier.name));
      expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
      expect(found).toEqual(expect.arrayContaining(expected(folded)));
      expect(expected(folded).length).toBeGreaterThan(0);
    }
    expect(await walk(routes.searchSuppliers, token, { query: 'nadie se llama así' })).toEqual([]);
  });

  it('pages through the directory in RUC order without repeating anyone', async () => {
    const items = await walk<SupplierProfile>(routes.searchSuppliers, await tokenOf('MANAGER'), {
      query: '20',
      limit: 1,
    });

    const rucs = items.map((item) => item.taxId);
    expect(new Set(rucs).size).toBe(rucs.length);
    expect(rucs).toEqual([...rucs].sort());
    // Other tests may add suppliers to the directory; the seed's are all there.
    expect(items).toEqual(
      expect.arrayContaining(SUPPLIERS.filter((supplier) => supplier.taxId.startsWith('20')).map(profile)),
    );
  });

  it('refuses a cursor of another search', async () => {
    const token = await tokenOf('ADMIN');
    const first = await call(routes.searchSuppliers, { token, query: { query: '20', limit: 1 } });
    expect(first.body.nextCursor).toEqual(expect.any(String));

    const response = await call(routes.searchSuppliers, {
      token,
      query: { query: 'servicios', cursor: first.body.nextCursor },
    });

    expectError(response, 400, 'ERROR_INVALID_CURSOR');
  });
});
