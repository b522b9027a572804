import { afterEach, describe, expect, it, vi } from 'vitest';
// @ts-expect-error plain ESM shims without types, used by esbuild aliases only (infra/lib/bundling.ts)
import { defaultProvider } from './credentials-from-env.mjs';
// @ts-expect-error see above
import LRUCache from './lru-cache.mjs';
// @ts-expect-error see above
import { EventStreamSerde, eventStreamSerdeProvider, resolveEventStreamSerdeConfig } from './no-event-streams.mjs';

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

  it("keep the least recently used endpoints, as the SDK's endpoint cache expects of its LRU cache", () => {
    const cache = new LRUCache(2) as {
      set(key: string, value: number): void;
      get(key: string): number | undefined;
      peek(key: string): number | undefined;
      has(key: string): boolean;
      clear(): void;
      size: number;
    };
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect(cache.has('b')).toBe(false);
    expect([cache.peek('a'), cache.peek('c'), cache.size]).toEqual([1, 3, 2]);
    cache.set('a', 4);
    cache.set('d', 5);
    expect([cache.has('c'), cache.get('a'), cache.get('d')]).toEqual([false, 4, 5]);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('configure clients without event streams and refuse one clearly', () => {
    const config = resolveEventStreamSerdeConfig({ eventStreamSerdeProvider }) as {
      eventStreamMarshaller: { serialize(): unknown; deserialize(): unknown };
    };
    expect(() => config.eventStreamMarshaller.deserialize()).toThrow(/event streams are left out/);
    expect(() => new EventStreamSerde()).toThrow(/event streams are left out/);
  });
});
