import * as z from 'zod/mini';
import { ErrorBody } from './schemas/common.js';
import { ROUTES } from './manifest.js';
import type { RouteDef } from './routes/route.js';
import { HEADERS } from './http.js';
import { API_CLIENT_SCOPES, API_CLIENT_SCOPE_LABELS, fullScope } from './auth.js';
import { OPENAPI_EXAMPLES } from './openapi-examples.js';
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
  if (def.machineScope) {
    params.push({
      name: HEADERS.apiClient,
      in: 'header',
      required: false,
      description: 'Solo clientes de API, y siempre: su ID de cliente (el mismo del token).',
      schema: { type: 'string' },
    });
  }
  params.push({ name: HEADERS.requestId, in: 'header', required: false, schema: { type: 'string' } });
  return params;
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
});

/** The local stage's API and token endpoint with the default ports (LOCAL_PORT_BASE 4700: api +1, Cognito +5). */
export const LOCAL_API_URL = 'http://127.0.0.1:4701';
export const LOCAL_TOKEN_URL = 'http://127.0.0.1:4705/oauth2/token';

/** Where the API is: the local stage, and a deployed stage through its portal's CloudFront (/api). */
const SERVERS = [
  { url: LOCAL_API_URL, description: 'Etapa local (npm start)' },
  {
    url: 'https://{portal}/api',
    description: 'Etapa desplegada en AWS: el dominio del portal de esa etapa',
    variables: { portal: { default: 'proveedores.example.pe', description: 'Dominio del portal de la etapa' } },
  },
];

/**
 * The browser's ID token (bearer), and a supplier's API client (OAuth2 client credentials). The token endpoint of a
 * deployed stage is its user pool domain's `/oauth2/token` (the portal shows it with the client's secret).
 */
const SECURITY_SCHEMES = {
  cognito: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Token de ID de Cognito del usuario que inició sesión en el portal web.',
  },
  apiClient: {
    type: 'oauth2',
    description:
      'Cliente de API de un proveedor (credenciales de cliente). Actúa solo por el RUC para el que se creó. ' +
      'En una etapa desplegada el tokenUrl es el dominio de Cognito de esa etapa (…/oauth2/token); ver docs/integrators.md.',
    flows: {
      clientCredentials: {
        tokenUrl: LOCAL_TOKEN_URL,
        scopes: Object.fromEntries(
          API_CLIENT_SCOPES.map((scope) => [fullScope(scope), API_CLIENT_SCOPE_LABELS[scope]]),
        ),
      },
    },
  },
};

function securityOf(def: RouteDef): Record<string, string[]>[] {
  if (def.auth !== 'jwt') return [];
  return def.machineScope ? [{ cognito: [] }, { apiClient: [fullScope(def.machineScope)] }] : [{ cognito: [] }];
}

const withExample = (schema: JsonSchema, example: unknown): Record<string, unknown> =>
  example === undefined ? { schema } : { schema, example };

/** The OpenAPI 3.1 document of the API, generated from the route manifest. */
export function buildOpenApi(serverUrl?: string): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const def of ROUTES) {
    const examples = OPENAPI_EXAMPLES[def.id as keyof typeof OPENAPI_EXAMPLES];
    const operation: Record<string, unknown> = {
      operationId: def.id,
      summary: def.summary,
      parameters: parametersOf(def),
      responses: {
        [String(def.successStatus)]: {
          description: 'Respuesta correcta',
          content: { 'application/json': withExample(schemaOf(def.response, 'output'), examples?.response) },
        },
        '400': errorResponse('Solicitud inválida'),
        ...(def.auth === 'jwt'
          ? { '401': errorResponse('Sesión no válida'), '403': errorResponse('Sin permiso') }
          : {}),
        ...(def.machineScope
          ? {
              '429': {
                ...errorResponse('El cliente de API superó sus solicitudes por minuto'),
                headers: {
                  'Retry-After': {
                    description: 'Segundos hasta que se pueda volver a llamar',
                    schema: { type: 'integer' },
                  },
                },
              },
            }
          : {}),
        '500': errorResponse('Error inesperado (solo txId)'),
      },
      'x-roles': def.roles,
      ...(def.machineScope ? { 'x-api-client-scope': fullScope(def.machineScope) } : {}),
      security: securityOf(def),
    };
    if (def.request.body) {
      operation.requestBody = {
        required: !def.request.body.safeParse(undefined).success,
        content: { 'application/json': withExample(schemaOf(def.request.body, 'input'), examples?.request) },
      };
    }
    (paths[def.path] ??= {})[def.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: { title: `${APP_TITLE} API`, version: APP_VERSION },
    servers: serverUrl ? [{ url: serverUrl }] : SERVERS,
    paths,
    components: {
      schemas: { ErrorBody: schemaOf(ErrorBody, 'output') },
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
