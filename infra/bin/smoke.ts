import { parseArgs } from 'node:util';
import { smokeTest } from '../lib/smoke.js';

/**
 * `npm run smoke -- <WebUrl> [--api-gateway-url <ApiGatewayUrl>]`: the checks to run after every deploy of a stage
 * (docs/deploying.md, "Smoke test"); also against the local stage (`npm run smoke -- http://localhost:<port>`).
 * Exits 1 when one fails.
 */
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { 'api-gateway-url': { type: 'string' } },
});
const [siteUrl] = positionals;
if (!siteUrl || !URL.canParse(siteUrl)) {
  console.error(
    'Uso: npm run smoke -- <WebUrl> [--api-gateway-url <ApiGatewayUrl>] (salidas de Portal-<etapa>-Stateless)',
  );
  process.exit(2);
}
const checks = await smokeTest(siteUrl, { apiGatewayUrl: values['api-gateway-url'] });
for (const check of checks) console.log(`${check.ok ? '✓' : '✗'} ${check.name}: ${check.detail}`);
const failed = checks.filter((check) => !check.ok).length;
console.log(
  failed ? `\n${failed} de ${checks.length} comprobaciones fallaron` : `\n${checks.length} comprobaciones correctas`,
);
process.exit(failed ? 1 : 0);
