import { delay, http, HttpResponse, type HttpHandler } from 'msw';
import {
  BadRequestError,
  ForbiddenError,
  forLevel,
  PortalError,
  ROUTES,
  UnauthorizedError,
  HEADERS,
  UNEXPECTED_ERROR_MESSAGE,
  parseTaxIds,
  spanishIssueMessage,
  type ErrorBody,
  type RouteDef,
  type RouteId,
} from '@portal/shared';
import type * as z from 'zod/mini';
import { createMockWorld, type MockWorld } from './data';
import { personaOfToken } from './personas';
import { MOCK_ROUTES, type MockContext } from './routes';

/** Spec §9: the mock provider answers after 250 ms, so that loading states show as they would. */
export const MOCK_DELAY_MS = 250;

/** Where createUpload sends files and getInvoiceFile's links point, under the API's base URL. */
export const MOCK_FILES_PATH = '/mock-files';

export interface MockOptions {
  /** The API base URL of the runtime configuration; the handlers answer under it only. */
  readonly apiUrl: string;
  /** Milliseconds before each answer (spec §9: 250); component tests pass 0. */
  readonly delayMs?: number;
  /** The world the handlers read and change: a fresh one by default. */
  readonly world?: MockWorld;
  /** The clock: dates of new invoices and answers. */
  readonly now?: () => Date;
}

type SpanishIssue = Parameters<typeof spanishIssueMessage>[0];

/** API Gateway's {name} placeholders in msw's :name syntax. */
function mswPath(route: RouteDef): string {
  return route.path.replace(/\{(\w+)\}/g, ':$1');
}

/** Parses one part of the request as the API's wrapper does, answering 400 with the parameter's code. */
function parsePart(route: RouteDef, schema: z.ZodMiniType | undefined, value: unknown): unknown {
  if (!schema) return undefined;
  // Reasons in Spanish as the API gives them: a schema's own message first, else the shared Spanish one.
  const result = schema.safeParse(value, { error: (issue) => spanishIssueMessage(issue as SpanishIssue) });
  if (result.success) return result.data;
  const [issue] = result.error.issues;
  const parameter = issue?.path.map(String).join('.') || 'body';
  const ownCode = route.request.parameterCodes?.[parameter];
  if (ownCode) throw new BadRequestError(ownCode, { parameter });
  throw new BadRequestError('ERROR_INVALID_PARAMETER', { parameter, reason: issue?.message ?? '' });
}

function errorResponse(error: unknown, txId: string): Response {
  if (error instanceof PortalError) {
    const body: ErrorBody = {
      statusCode: error.statusCode,
      message: error.message,
      txId,
      errors: error.errors.map((item) => ({ code: item.code, parameters: item.parameters })),
    };
    return HttpResponse.json(body, { status: error.statusCode });
  }
  console.error('El proveedor simulado falló', error);
  return HttpResponse.json({ statusCode: 500, message: UNEXPECTED_ERROR_MESSAGE, txId, errors: [] }, { status: 500 });
}

/** The caller's persona and company, checked as the API's authorizer and wrapper check them. */
function authorize(route: RouteDef, request: Request): Pick<MockContext<RouteDef>, 'persona' | 'company'> {
  if (route.auth === 'public') return { persona: null, company: null };
  const persona = personaOfToken(request.headers.get('authorization'));
  if (!persona) throw new UnauthorizedError();
  if (!route.roles.includes(persona.user.level)) throw new ForbiddenError();
  const allowed = parseTaxIds(persona.user.taxId);
  const asked = request.headers.get(HEADERS.companyId);
  if (asked && !allowed.includes(asked) && persona.user.level !== 'ADMIN') {
    throw new ForbiddenError('ERROR_COMPANY_NOT_ALLOWED', { companyId: asked });
  }
  const company = asked ?? allowed[0] ?? null;
  if (route.requiresCompany && !company && persona.user.level !== 'ADMIN') throw new ForbiddenError();
  return { persona, company };
}

async function readBody(request: Request): Promise<unknown> {
  const text = await request.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BadRequestError('ERROR_INVALID_BODY');
  }
}

/**
 * The mock provider: one msw handler per route of the manifest, answering from MOCK_ROUTES after the delay, with
 * the API's checks (token, role, company, the request's schemas) and its error body. Plus the file links the
 * answers hand out (uploads and downloads).
 */
export function createMockHandlers(options: MockOptions): HttpHandler[] {
  const base = options.apiUrl.replace(/\/+$/, '');
  const delayMs = options.delayMs ?? MOCK_DELAY_MS;
  const world = options.world ?? createMockWorld();
  const now = options.now ?? (() => new Date());

  const routeHandlers = ROUTES.map((route) => {
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    return http[method](`${base}${mswPath(route)}`, async ({ request, params }) => {
      if (delayMs > 0) await delay(delayMs);
      const txId = request.headers.get(HEADERS.requestId) ?? crypto.randomUUID();
      try {
        const { persona, company } = authorize(route, request);
        const url = new URL(request.url);
        const context: MockContext<RouteDef> = {
          path: parsePart(route, route.request.path, params),
          query: parsePart(route, route.request.query, Object.fromEntries(url.searchParams)),
          body: parsePart(route, route.request.body, await readBody(request)),
          persona,
          company,
          world,
          now: now(),
          filesUrl: `${base}${MOCK_FILES_PATH}`,
        };
        const resolve = MOCK_ROUTES[route.id as RouteId] as (context: MockContext<RouteDef>) => unknown;
        // What the API's wrapper does: a supplier's answer without what the schema declares staff-only.
        const answer = resolve(context);
        const shown = persona ? forLevel(route.response, answer, persona.user.level) : answer;
        return HttpResponse.json(shown as object, {
          status: route.successStatus,
          headers: { [HEADERS.requestId]: txId },
        });
      } catch (error) {
        return errorResponse(error, txId);
      }
    });
  });

  const files = [
    // The presigned POST of createUpload: the file is accepted and forgotten.
    http.post(`${base}${MOCK_FILES_PATH}`, async () => {
      if (delayMs > 0) await delay(delayMs);
      return new HttpResponse(null, { status: 204 });
    }),
    // getInvoiceFile's links: a short sample document of the right type.
    http.get(`${base}${MOCK_FILES_PATH}/:name`, ({ params }) => {
      const name = String(params.name);
      const xml = name.endsWith('.xml');
      const text = xml
        ? `<?xml version="1.0" encoding="UTF-8"?>\n<!-- ${name}: documento de ejemplo del proveedor simulado -->\n<Invoice/>\n`
        : `Documento de ejemplo del proveedor simulado: ${name}\n`;
      return new HttpResponse(text, {
        headers: { 'content-type': xml ? 'application/xml; charset=utf-8' : 'text/plain; charset=utf-8' },
      });
    }),
  ];
  return [...routeHandlers, ...files];
}
