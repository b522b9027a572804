import { afterEach, describe, expect, it, vi } from 'vitest';
// @ts-expect-error plain ESM shims without types, used by esbuild aliases only (infra/lib/bundling.ts)
import { defaultProvider } from './credentials-from-env.mjs';
// @ts-expect-error see above
import { gte } from './semver-gte.mjs';

describe('bundle shims', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('give the SDK the credentials Lambda puts in the environment', async () => {
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

  it("compare versions as semver's gte does (the X-Ray SDK's only use)", () => {
    expect(gte('2.7.0', '2.7.0')).toBe(true);
    expect(gte('2.10.0', '2.7.0')).toBe(true);
    expect(gte('2.6.9', '2.7.0')).toBe(false);
  });
});
