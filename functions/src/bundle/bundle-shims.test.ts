import { afterEach, describe, expect, it, vi } from 'vitest';
// @ts-expect-error a plain ESM shim without types, used by an esbuild alias only (infra/lib/bundling.ts)
import { defaultProvider } from './credentials-from-env.mjs';

describe('bundle shim', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('gives the SDK the credentials Lambda puts in the environment', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIALAMBDAROLE');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'secret');
    vi.stubEnv('AWS_SESSION_TOKEN', 'session');
    const credentials = await (defaultProvider({}) as () => Promise<Record<string, string>>)();
    expect(credentials).toMatchObject({
      accessKeyId: 'AKIALAMBDAROLE',
      secretAccessKey: 'secret',
      sessionToken: 'session',
    });
  });
});
