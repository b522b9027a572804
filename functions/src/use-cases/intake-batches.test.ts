import { describe, expect, it } from 'vitest';
import { BadRequestError } from '@portal/shared';
import type { Caller } from '../http/caller.js';
import type { StoredIntakeBatch } from '../repositories/intake-batches.js';
import type { OutgoingMessage } from '../repositories/outgoing.js';
import {
  MAX_RUNNING_BATCHES,
  getIntakeBatch,
  listIntakeBatches,
  makeRequestIntakeBatch,
  type IntakeBatchReadDeps,
} from './intake-batches.js';

/** The batch reads bound to one set of ports, as the handlers call them. */
const makeReadIntakeBatches = (deps: IntakeBatchReadDeps) => ({
  get: (...args: Parameters<typeof getIntakeBatch> extends [unknown, ...infer R] ? R : never) =>
    getIntakeBatch(deps, ...args),
  list: (caller: Parameters<typeof listIntakeBatches>[1]) => listIntakeBatches(deps, caller),
});

const RUC = '20512345678';
const NOW = new Date('2026-03-05T15:00:00.000Z');

function caller(sub: string, level: Caller['level'] = 'SUPPLIER'): Caller {
  return {
    sub,
    username: sub,
    email: `${sub}@example.pe`,
    firstName: 'Ana',
    lastName: 'Pérez',
    level,
    taxIds: level === 'ADMIN' ? [] : [RUC],
    groups: [],
    activeCompany: level === 'ADMIN' ? 'admin' : RUC,
    expiresAt: 0,
    signIn: 'PASSWORD',
    txId: 'tx-1',
  };
}

function setUp() {
  const stored = new Map<string, StoredIntakeBatch>();
  const messages: OutgoingMessage[] = [];
  const delivered: OutgoingMessage[] = [];
  let n = 0;
  const batches = {
    create: async (batch: StoredIntakeBatch, message: OutgoingMessage) => {
      stored.set(batch.id, batch);
      messages.push(message);
    },
    get: async (id: string) => stored.get(id) ?? null,
    recent: async (userId: string) =>
      [...stored.values()].filter((batch) => batch.userId === userId).sort((a, b) => (a.id < b.id ? 1 : -1)),
    results: async () => ({ items: [], nextCursor: null }),
  };
  const request = makeRequestIntakeBatch({
    batches,
    verifyUpload: async (key) => {
      if (!key.endsWith('.zip')) throw new BadRequestError('ERROR_UPLOAD_CONTENT_MISMATCH', { expected: 'ZIP' });
      return { key, size: 10, contentType: 'application/zip', fileName: 'marzo.zip' };
    },
    outgoing: {
      deliver: async (sent) => {
        delivered.push(...sent);
      },
    },
    clock: () => NOW,
    newId: () => `00000000-0000-4000-8000-00000000000${++n}`,
  });
  return { request, read: makeReadIntakeBatches({ batches }), stored, messages, delivered };
}

const body = { url: `uploads/${RUC}/2026/03/7d1f0c2e-1b4a-4c1e-9a53-0d7c2f6b9e10.zip` };

describe('a zip of documents, asked for', () => {
  it('is queued at once under its uploader, with their snapshot, and its message committed with it', async () => {
    const { request, stored, messages, delivered } = setUp();
    const batch = await request(caller('ana'), body);
    expect(batch).toMatchObject({
      status: 'QUEUED',
      fileName: 'marzo.zip',
      company: RUC,
      counts: { total: null, processed: 0 },
      progress: null,
      error: null,
    });
    expect(stored.get(batch.id)).toMatchObject({
      userId: 'ana',
      key: body.url,
      uploader: { sub: 'ana', activeCompany: RUC },
    });
    expect(messages).toEqual(delivered);
    expect(messages[0]).toMatchObject({ queue: 'intakeBatches', body: { batchId: batch.id } });
  });

  it("is an administrator's too, acting for no company (filed under 'admin', as their uploads)", async () => {
    const { request } = setUp();
    const admin = { ...caller('root', 'ADMIN'), activeCompany: null };
    await expect(request(admin, body)).resolves.toMatchObject({ status: 'QUEUED', company: 'admin' });
  });

  it('is refused when the upload is not a zip, and nothing is queued', async () => {
    const { request, messages } = setUp();
    await expect(request(caller('ana'), { url: body.url.replace('.zip', '.pdf') })).rejects.toMatchObject({
      statusCode: 400,
    });
    expect(messages).toEqual([]);
  });

  it(`takes at most ${MAX_RUNNING_BATCHES} of one user under way, in Spanish`, async () => {
    const { request } = setUp();
    for (let i = 0; i < MAX_RUNNING_BATCHES; i++) await request(caller('ana'), body);
    await expect(request(caller('ana'), body)).rejects.toMatchObject({
      statusCode: 409,
      errors: [{ code: 'ERROR_TOO_MANY_INTAKE_BATCHES', parameters: { limit: MAX_RUNNING_BATCHES } }],
      message: `Ya tiene ${MAX_RUNNING_BATCHES} cargas de ZIP en curso. Espere a que termine alguna antes de cargar otro ZIP.`,
    });
    // Another user's are theirs.
    await expect(request(caller('beto'), body)).resolves.toMatchObject({ status: 'QUEUED' });
  });

  it('is read by its uploader and an administrator only; to anyone else it does not exist', async () => {
    const { request, read } = setUp();
    const batch = await request(caller('ana'), body);
    await expect(read.get(caller('ana'), batch.id, { limit: 100 })).resolves.toMatchObject({
      id: batch.id,
      results: { items: [] },
    });
    await expect(read.get(caller('admin', 'ADMIN'), batch.id, { limit: 100 })).resolves.toMatchObject({ id: batch.id });
    await expect(read.get(caller('beto'), batch.id, { limit: 100 })).rejects.toMatchObject({
      statusCode: 404,
      message: 'No se encontró la carga de ZIP solicitada.',
    });
    expect((await read.list(caller('beto'))).items).toEqual([]);
    expect((await read.list(caller('ana'))).items.map((item) => item.id)).toEqual([batch.id]);
  });
});
