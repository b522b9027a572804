import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '@portal/shared';
import { CHECKS, smokeTest } from '../../infra/lib/smoke.js';
import { stage } from '../support/stage.js';

/**
 * The smoke test of docs/deploying.md (`npm run smoke`): it passes on a working stage, the local one, and names the
 * check that fails on a stage that is broken in each of the ways a deploy leaves one.
 */
describe('smoke test on the local stage', () => {
  it('passes every check, naming the stage, the version and the routes', async () => {
    const checks = await smokeTest(stage().webUrl);
    expect(checks.filter((check) => !check.ok)).toEqual([]);
    expect(checks.map((check) => check.name)).toEqual([
      CHECKS.site,
      CHECKS.config,
      CHECKS.api,
      CHECKS.routes,
      CHECKS.identity,
      CHECKS.cognito,
    ]);
    expect(checks[1]!.detail).toContain(`grupo de usuarios ${stage().userPoolId}`);
    expect(checks[2]!.detail).toMatch(/versión \d+\.\d+\.\d+, base de datos disponible/);
    expect(checks[3]!.detail).toMatch(/^\d+ rutas, todas las de esta copia$/);
    expect(checks[4]!.detail).toContain('401 del autorizador');
  });
});

describe('smoke test on a broken stage', () => {
  // A stage whose every answer the test chooses: path → [status, headers, body].
  let answers: Record<string, [number, Record<string, string>, string]>;
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const [status, headers, body] = answers[new URL(req.url ?? '/', base).pathname] ?? [404, {}, 'no'];
      res.writeHead(status, headers).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const html: [number, Record<string, string>, string] = [
    200,
    { 'content-type': 'text/html', 'content-security-policy': "default-src 'self'" },
    '<div id="root"></div>',
  ];
  const json = (status: number, body: unknown): [number, Record<string, string>, string] => [
    status,
    { 'content-type': 'application/json' },
    JSON.stringify(body),
  ];
  const working = () => ({
    '/': html,
    '/config.json': json(200, {
      stage: 'qa',
      apiUrl: `${base}/api`,
      region: 'sa-east-1',
      userPoolId: 'sa-east-1_Pool',
      userPoolClientId: 'client',
      cognitoEndpoint: base,
      oauth: null,
      chat: null,
      waf: null,
      intakeMailDomain: null,
    }),
    '/api/healthcheck': json(200, { status: 'ok', version: '9.9.9', time: '2026-12-03T00:00:00Z' }),
    '/api/openapi.json': json(200, {
      paths: ROUTES.reduce<Record<string, Record<string, object>>>(
        (paths, route) => ({ ...paths, [route.path]: { ...paths[route.path], [route.method.toLowerCase()]: {} } }),
        {},
      ),
    }),
    '/api/users/me': json(401, { message: 'Unauthorized' }),
    '/sa-east-1_Pool/.well-known/openid-configuration': json(200, { issuer: `${base}/sa-east-1_Pool` }),
    '/direct/heartbeat': json(403, { errors: [{ code: 'ERROR_DIRECT_ACCESS_FORBIDDEN', parameters: {} }] }),
  });
  const failures = async (options: Parameters<typeof smokeTest>[1] = {}) =>
    (await smokeTest(base, options)).filter((check) => !check.ok).map((check) => `${check.name}: ${check.detail}`);

  it('passes a stage that answers as a deployed one, WAF challenge included', async () => {
    answers = { ...working(), '/api/users/me': [202, { 'x-amzn-waf-action': 'challenge' }, ''] };
    expect(await failures({ apiGatewayUrl: `${base}/direct` })).toEqual([]);
  });

  it('stops at a site without its config.json and says what it could not check', async () => {
    answers = { ...working(), '/config.json': html };
    const failed = await failures();
    expect(failed[0]).toMatch(new RegExp(`^${CHECKS.config}: .*no respondió JSON`));
    expect(failed.slice(1)).toEqual(
      [CHECKS.api, CHECKS.routes, CHECKS.identity, CHECKS.cognito].map(
        (name) => `${name}: no se comprobó: falló «${CHECKS.config}»`,
      ),
    );
  });

  it('fails an API that lets anyone in, one of another version, and one reachable around CloudFront', async () => {
    answers = {
      ...working(),
      '/api/users/me': json(200, { email: 'nadie@example.com' }),
      '/api/openapi.json': json(200, { paths: { '/healthcheck': { get: {} } } }),
      '/direct/heartbeat': json(200, { status: 'ok' }),
    };
    const failed = await failures({ apiGatewayUrl: `${base}/direct` });
    expect(failed).toHaveLength(3);
    expect(failed[0]).toMatch(new RegExp(`^${CHECKS.routes}: faltan ${ROUTES.length - 1} rutas .*otra versión`));
    expect(failed[1]).toBe(`${CHECKS.identity}: ${base}/api/users/me respondió 200, no 401`);
    expect(failed[2]).toBe(`${CHECKS.direct}: ${base}/direct/heartbeat respondió 200, no 403`);
  });

  it('fails a database that does not answer, and a site that does not answer at all', async () => {
    answers = { ...working(), '/api/healthcheck': json(503, { errors: [{ code: 'ERROR_SERVICE_UNAVAILABLE' }] }) };
    expect(await failures()).toEqual([`${CHECKS.api}: ${base}/api/healthcheck respondió 503, no 200`]);

    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const checks = await smokeTest(`http://127.0.0.1:${port}`, { timeoutMs: 2_000 });
    expect(checks[0]).toMatchObject({
      name: CHECKS.site,
      ok: false,
      detail: expect.stringMatching(/no responde \(ECONNREFUSED\)/),
    });
  });
});
