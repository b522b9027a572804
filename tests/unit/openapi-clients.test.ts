import { readFileSync } from 'node:fs';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';
import { describe, expect, it } from 'vitest';
import { OPENAPI_EXAMPLES, ROUTES, buildOpenApi, fullScope, routes, type RouteId } from '@portal/shared';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TYPES_FILE = path.join(ROOT, 'tests/support/portal-api.d.ts');

/** What a supplier's developer builds on (docs/integrators.md): the document's machine routes, and the generated types. */
describe('the OpenAPI document for API clients', () => {
  const document = buildOpenApi() as {
    servers: { url: string }[];
    components: { securitySchemes: Record<string, { type: string; flows?: unknown }> };
    paths: Record<string, Record<string, { security: Record<string, string[]>[]; operationId: string }>>;
  };

  it('names the servers and both security schemes', () => {
    expect(document.servers.map((server) => server.url)).toEqual(['http://127.0.0.1:4701', 'https://{portal}/api']);
    expect(document.components.securitySchemes.cognito?.type).toBe('http');
    expect(document.components.securitySchemes.apiClient).toMatchObject({
      type: 'oauth2',
      flows: { clientCredentials: { scopes: { 'portal/invoices.submit': expect.any(String) } } },
    });
  });

  it('opens to API clients exactly the routes the manifest gives a scope, each with its scope', () => {
    for (const def of ROUTES) {
      const operation = document.paths[def.path]![def.method.toLowerCase()]!;
      const machine = operation.security.find((requirement) => 'apiClient' in requirement);
      expect(machine, def.id).toEqual(def.machineScope ? { apiClient: [fullScope(def.machineScope)] } : undefined);
    }
    expect(
      ROUTES.filter((def) => def.machineScope)
        .map((def) => def.id)
        .sort(),
    ).toEqual(['createInvoiceFromXml', 'createUpload', 'getInvoice', 'getInvoiceFile', 'listInvoices']);
  });

  it('has examples for the machine routes that their own schemas accept', () => {
    for (const def of ROUTES.filter((route) => route.machineScope)) {
      const examples = OPENAPI_EXAMPLES[def.id as RouteId];
      expect(examples?.response, def.id).toBeDefined();
      expect(def.response.safeParse(examples!.response).success, `${def.id} response example`).toBe(true);
      if (def.request.body) {
        expect(def.request.body.safeParse(examples!.request).success, `${def.id} request example`).toBe(true);
      }
    }
    expect(routes.createInvoiceFromXml.request.body.safeParse({}).success).toBe(false);
  });

  it('keeps tests/support/portal-api.d.ts what openapi-typescript makes of it (npm run openapi:types)', async () => {
    const generated = astToString(await openapiTS(JSON.parse(JSON.stringify(document))));
    const options = { ...(await resolveConfig(TYPES_FILE)), filepath: TYPES_FILE };
    // The CLI heads the file with its "auto-generated" notice; the Node API does not.
    const committed = readFileSync(TYPES_FILE, 'utf8').replace(/^\/\*\*[\s\S]*?auto-generated[\s\S]*?\*\/\s*/, '');
    expect(await format(generated, options)).toBe(await format(committed, options));
  }, 60_000);
});
