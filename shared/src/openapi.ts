import * as z from 'zod/mini';
import { ErrorBody } from './schemas/common.js';
import { ROUTES } from './manifest.js';
import type { RouteDef } from './routes/route.js';
import { HEADERS } from './http.js';
import { APP_TITLE, APP_VERSION } from './version.js';

type JsonSchema = Record<string, unknown>;

function schemaOf(type: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(type, { io, unrepresentable: 'any' }) as JsonSchema;
  return schema;
}

function parametersOf(def: RouteDef): JsonSchema[] {
  const params: JsonSchema[] = [];
  for (const where of ['path', 'query'] as const) {
    const type = def.request[where];
    if (!type) continue;
    const schema = schemaOf(type, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      params.push({
        name,
        in: where,
        required: where === 'path' || (schema.required ?? []).includes(name),
        schema: property,
      });
    }
  }
  if (def.auth === 'jwt') {
    params.push(
      { name: HEADERS.companyId, in: 'header', required: false, schema: { type: 'string' } },
      { name: HEADERS.consumerId, in: 'header', required: false, schema: { type: 'string' } },
    );
  }
  params.push({ name: HEADERS.requestId, in: 'header', required: false, schema: { type: 'string' } });
  return params;
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
});

/** The OpenAPI 3.1 document of the API, generated from the route manifest. */
export function buildOpenApi(serverUrl?: string): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const def of ROUTES) {
    const operation: Record<string, unknown> = {
      operationId: def.id,
      summary: def.summary,
      parameters: parametersOf(def),
      responses: {
        [String(def.successStatus)]: {
          description: 'Respuesta correcta',
          content: { 'application/json': { schema: schemaOf(def.response, 'output') } },
        },
        '400': errorResponse('Solicitud inválida'),
        ...(def.auth === 'jwt'
          ? { '401': errorResponse('Sesión no válida'), '403': errorResponse('Sin permiso') }
          : {}),
        '500': errorResponse('Error inesperado (solo txId)'),
      },
      'x-roles': def.roles,
      security: def.auth === 'jwt' ? [{ cognito: [] }] : [],
    };
    if (def.request.body) {
      operation.requestBody = {
        required: !def.request.body.safeParse(undefined).success,
        content: { 'application/json': { schema: schemaOf(def.request.body, 'input') } },
      };
    }
    (paths[def.path] ??= {})[def.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: { title: `${APP_TITLE} API`, version: APP_VERSION },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    paths,
    components: {
      schemas: { ErrorBody: schemaOf(ErrorBody, 'output') },
      securitySchemes: { cognito: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    },
  };
}
