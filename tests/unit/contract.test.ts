import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  APP_VERSION,
  ERROR_MESSAGES,
  ROUTES,
  buildOpenApi,
  buildPath,
  formatErrorMessage,
  routes,
} from '@portal/shared';

import { readSpecContract, specContractFromSpec } from '../support/spec-contract.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
// The spec's calls and error codes, kept in the repository (tests/fixtures/spec-contract.json): a clone alone passes.
const contract = readSpecContract();

describe('the shared contract follows the specification', () => {
  it('keeps the fixture of the spec in step with the spec when the spec is beside the repository', () => {
    // Without ../shared (a fresh clone) the fixture is all there is; with it, the fixture must be current
    // (`npx tsx tests/support/spec-contract.ts` regenerates it).
    const fromSpec = specContractFromSpec() ?? contract;
    expect(contract).toEqual(fromSpec);
  });

  it('declares every call of spec §7 in the route manifest', () => {
    const { calls } = contract;
    expect(calls.length).toBeGreaterThan(20);
    const declared = new Set(ROUTES.map((def) => `${def.method} ${def.path}`));
    expect(calls.filter((call) => !declared.has(call))).toEqual([]);
  });

  it('has a Spanish message for every error code of spec §8', () => {
    const codes = contract.errorCodes;
    expect(codes.length).toBeGreaterThan(25);
    expect(codes.filter((code) => !(code in ERROR_MESSAGES))).toEqual([]);
    for (const code of codes) expect(ERROR_MESSAGES[code as keyof typeof ERROR_MESSAGES]).toMatch(/^[A-ZÁÉÍÓÚÑ¿¡]/);
  });

  it('fills message placeholders from the error parameters', () => {
    expect(formatErrorMessage('ERROR_MISSING_PARAMETER', { parameter: 'client' })).toBe(
      'Falta el parámetro obligatorio «client».',
    );
  });

  it('carries the application version of package.json (spec §1: 1.0.5)', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(APP_VERSION).toBe(pkg.version);
    expect(APP_VERSION).toBe('1.0.5');
  });

  it('gives every route a unique id and a unique method and path', () => {
    expect(new Set(ROUTES.map((def) => def.id)).size).toBe(ROUTES.length);
    expect(new Set(ROUTES.map((def) => `${def.method} ${def.path}`)).size).toBe(ROUTES.length);
  });

  it('generates an OpenAPI 3.1 document with every route and the error body', () => {
    const document = buildOpenApi() as {
      openapi: string;
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    expect(document.openapi).toBe('3.1.0');
    for (const def of ROUTES) {
      expect(document.paths[def.path]?.[def.method.toLowerCase()]?.operationId).toBe(def.id);
    }
  });

  it('matches the committed docs/openapi.json (run `npm run openapi` after changing the manifest)', () => {
    const committed = JSON.parse(readFileSync(path.join(ROOT, 'docs/openapi.json'), 'utf8')) as unknown;
    expect(buildOpenApi()).toEqual(committed);
  });

  it('builds request paths from a route and its parameters, encoding them', () => {
    expect(
      buildPath(routes.getInvoice, { supplierId: '20456178325', invoiceType: 'FACTURA', invoiceId: 'F001-1' }),
    ).toBe('/suppliers/20456178325/invoices/FACTURA/F001-1');
    expect(() => buildPath(routes.getInvoice, { supplierId: '1' })).toThrow(/invoiceType/);
  });
});
