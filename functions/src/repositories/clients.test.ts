import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { makeClientRepository } from './clients.js';

const COMPANY = {
  pk: 'CLIENT',
  sk: 'CLIENT#20100070970',
  taxId: '20100070970',
  name: 'Corporación Andina',
  address: 'Lima',
  logo: null,
  system_name: 'CAA',
};

function repository(items: Record<string, unknown>) {
  const send = vi.fn(async (command: { input: { Key: { sk: string } } }) => ({
    Item: Object.values(items).find((item) => (item as { sk: string }).sk === command.input.Key.sk),
  }));
  let clock = 1_000;
  const repo = makeClientRepository({ send } as unknown as DynamoDBDocumentClient, 'table', {
    cacheMs: 60_000,
    now: () => clock,
  });
  return { repo, send, advance: (ms: number) => (clock += ms) };
}

describe('client repository', () => {
  it('reads a company once while it is fresh, and again after the cache time', async () => {
    const { repo, send, advance } = repository({ company: COMPANY });
    expect((await repo.get('20100070970'))?.name).toBe('Corporación Andina');
    expect((await repo.get('20100070970'))?.name).toBe('Corporación Andina');
    expect(send).toHaveBeenCalledTimes(1);
    advance(60_001);
    await repo.get('20100070970');
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('reads a missing company every time, so that a new one is found at once', async () => {
    const items: Record<string, unknown> = {};
    const { repo, send } = repository(items);
    expect(await repo.get('20100070970')).toBeNull();
    items.company = COMPANY;
    expect((await repo.get('20100070970'))?.taxId).toBe('20100070970');
    expect(send).toHaveBeenCalledTimes(2);
  });
});
