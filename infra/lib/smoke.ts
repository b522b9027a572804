import { ROUTES, WebConfig } from '@portal/shared';

/** One check of the smoke test: what was checked, whether it held, and what was seen. */
export interface SmokeCheck {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

/** The checks, in the order they run. */
export const CHECKS = {
  site: 'El sitio responde',
  config: 'config.json describe la etapa',
  api: 'La API responde a través del sitio',
  routes: 'La API describe las rutas de esta versión',
  identity: 'Una ruta protegida rechaza a quien no se identifica',
  cognito: 'Cognito publica el grupo de usuarios',
  direct: 'API Gateway rechaza llamadas que no pasan por CloudFront',
} as const;

export interface SmokeOptions {
  /** The `ApiGatewayUrl` output: the API's own address, which must refuse callers that skip CloudFront. */
  readonly apiGatewayUrl?: string;
  /** Per request. @default 15 s */
  readonly timeoutMs?: number;
}

/**
 * What to check right after a deploy, from outside, with no account and no user: the site answers with its security
 * headers, its `config.json` names the stage's user pool and API, the API answers through the site (the table
 * reachable, the version deployed), its description lists every route of this checkout, a protected route refuses a
 * caller without identity (AWS WAF's challenge, or the JWT authorizer's 401), the user pool publishes its OpenID
 * configuration, and, given `apiGatewayUrl`, the API refuses a call that skipped CloudFront. Checks that depend on an
 * earlier one are reported as not run when it failed.
 */
export async function smokeTest(siteUrl: string, options: SmokeOptions = {}): Promise<SmokeCheck[]> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const checks: SmokeCheck[] = [];
  const check = async (name: string, run: () => Promise<string>): Promise<boolean> => {
    try {
      checks.push({ name, ok: true, detail: await run() });
      return true;
    } catch (error) {
      checks.push({ name, ok: false, detail: (error as Error).message });
      return false;
    }
  };
  const get = getWithin(timeoutMs);

  const site = new URL('/', siteUrl).href;
  await check(CHECKS.site, () => siteAnswers(get, site));

  let config: WebConfig | undefined;
  const configUrl = new URL('/config.json', siteUrl).href;
  await check(CHECKS.config, async () => {
    const response = await get(configUrl);
    expectStatus(response, 200, configUrl);
    const parsed = WebConfig.safeParse(await jsonOf(response, configUrl));
    if (!parsed.success) throw new Error(`${configUrl} no es una configuración válida: ${parsed.error.message}`);
    config = parsed.data;
    return `etapa ${config.stage}, región ${config.region}, grupo de usuarios ${config.userPoolId}`;
  });
  if (!config) {
    const later = [CHECKS.api, CHECKS.routes, CHECKS.identity, CHECKS.cognito];
    return [
      ...checks,
      ...later.map((name) => ({ name, ok: false, detail: `no se comprobó: falló «${CHECKS.config}»` })),
    ];
  }
  const apiUrl = config.apiUrl.replace(/\/$/, '');

  await check(CHECKS.api, async () => {
    const url = `${apiUrl}/healthcheck`;
    const response = await get(url);
    expectStatus(response, 200, url);
    const body = (await jsonOf(response, url)) as { status?: string; version?: string };
    if (body.status !== 'ok') throw new Error(`${url} respondió ${JSON.stringify(body)}`);
    return `${url}: versión ${body.version}, base de datos disponible`;
  });

  await check(CHECKS.routes, () => routesServed(get, apiUrl));

  await check(CHECKS.identity, async () => {
    const url = `${apiUrl}/users/me`;
    const response = await get(url);
    const wafAction = response.headers.get('x-amzn-waf-action');
    if (wafAction) return `${url}: AWS WAF responde ${response.status} (${wafAction})`;
    expectStatus(response, 401, url);
    return `${url}: 401 del autorizador`;
  });

  const { cognitoEndpoint, region, userPoolId } = config;
  await check(CHECKS.cognito, () => userPoolPublished(get, cognitoEndpoint, region, userPoolId));

  if (options.apiGatewayUrl) {
    await check(CHECKS.direct, async () => {
      const url = `${options.apiGatewayUrl!.replace(/\/$/, '')}/heartbeat`;
      const response = await get(url);
      expectStatus(response, 403, url);
      const body = (await jsonOf(response, url)) as { errors?: { code?: string }[] };
      const code = body.errors?.[0]?.code;
      if (code !== 'ERROR_DIRECT_ACCESS_FORBIDDEN') throw new Error(`${url}: 403 con ${code ?? 'otro cuerpo'}`);
      return `${url}: 403 ERROR_DIRECT_ACCESS_FORBIDDEN`;
    });
  }
  return checks;
}

type Get = (url: string) => Promise<Response>;

/** A GET that neither follows redirects nor waits more than `timeoutMs`, failing with why it got no answer. */
function getWithin(timeoutMs: number): Get {
  return async (url) => {
    try {
      return await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      // fetch's own error says only "fetch failed"; its cause says why (ECONNREFUSED, ENOTFOUND, a timeout...).
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new Error(`${url} no responde (${cause?.code ?? cause?.message ?? (error as Error).message})`);
    }
  };
}

function expectStatus(response: Response, status: number, url: string): void {
  if (response.status !== status) throw new Error(`${url} respondió ${response.status}, no ${status}`);
}

async function jsonOf(response: Response, url: string): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`${url} no respondió JSON: ${text.slice(0, 80)}`);
  }
}

/** The site answers its page with HTML and a Content-Security-Policy. */
async function siteAnswers(get: Get, site: string): Promise<string> {
  const response = await get(site);
  expectStatus(response, 200, site);
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith('text/html')) throw new Error(`${site} respondió ${type || 'sin tipo'}, no text/html`);
  if (!response.headers.get('content-security-policy')) throw new Error(`${site} no envía Content-Security-Policy`);
  if (!/<div id="root"|<script/.test(await response.text())) throw new Error(`${site} no es la aplicación web`);
  return `${site}: 200, HTML con Content-Security-Policy`;
}

/** The API's description lists every route of this checkout. */
async function routesServed(get: Get, apiUrl: string): Promise<string> {
  const url = `${apiUrl}/openapi.json`;
  const response = await get(url);
  expectStatus(response, 200, url);
  const document = (await jsonOf(response, url)) as { paths?: Record<string, Record<string, unknown>> };
  const served = new Set(
    Object.entries(document.paths ?? {}).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    ),
  );
  const missing = ROUTES.filter((route) => !served.has(`${route.method} ${route.path}`));
  if (missing.length) {
    throw new Error(
      `faltan ${missing.length} rutas (${missing
        .slice(0, 3)
        .map((route) => `${route.method} ${route.path}`)
        .join(', ')}…): ¿otra versión desplegada?`,
    );
  }
  return `${served.size} rutas, todas las de esta copia`;
}

/** The user pool publishes its OpenID configuration, naming itself as the issuer. */
async function userPoolPublished(
  get: Get,
  cognitoEndpoint: string | null,
  region: string,
  userPoolId: string,
): Promise<string> {
  const base = cognitoEndpoint ?? `https://cognito-idp.${region}.amazonaws.com`;
  const url = `${base.replace(/\/$/, '')}/${userPoolId}/.well-known/openid-configuration`;
  const response = await get(url);
  expectStatus(response, 200, url);
  const discovery = (await jsonOf(response, url)) as { issuer?: string };
  if (!discovery.issuer?.endsWith(userPoolId)) throw new Error(`${url}: emisor ${discovery.issuer}`);
  return `emisor ${discovery.issuer}`;
}
