import { WebConfig } from '@portal/shared';

let current: WebConfig | null = null;

/** Fetches and validates /config.json once at start: one build serves every stage. */
export async function loadRuntimeConfig(url = '/config.json'): Promise<WebConfig> {
  const response = await fetch(url, { cache: 'no-store', headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
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
