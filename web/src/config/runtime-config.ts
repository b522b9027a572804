import { WebConfig } from '@portal/shared';

let current: WebConfig | null = null;

/**
 * Fetches and validates /config.json once at start: one build serves every stage. `source` is its URL, or the
 * request main.tsx sent before the app's code had loaded.
 */
export async function loadRuntimeConfig(source: string | Promise<Response> = '/config.json'): Promise<WebConfig> {
  const response = await (typeof source === 'string'
    ? fetch(source, { cache: 'no-store', headers: { accept: 'application/json' } })
    : source);
  if (!response.ok) throw new Error(`GET ${response.url || String(source)} answered ${response.status}`);
  current = WebConfig.parse(await response.json());
  return current;
}

/** The configuration loaded at start. Only valid after loadRuntimeConfig resolved. */
export function runtimeConfig(): WebConfig {
  if (!current) throw new Error('Runtime configuration read before it was loaded');
  return current;
}

/** Whether the app runs on the mock provider (config.json `mock: true`): no API, no identity service. */
export function usesMockProvider(): boolean {
  return runtimeConfig().mock === true;
}
