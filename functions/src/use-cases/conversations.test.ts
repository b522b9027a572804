import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ConflictError,
  NotFoundError,
  NotificationMessage,
  type Invoice,
  type InvoiceMessage,
} from '@portal/shared';
import type { Caller } from '../http/caller.js';
import { InvoiceChangedError, type InvoiceChange, type StoredInvoice } from '../repositories/invoice-store.js';
import type { OutgoingMessage } from '../repositories/outgoing.js';
import { conversationCalls } from './conversations/conversation-calls.fake.js';
import { storedInvoiceFixture } from './invoice.fake.js';

const SUPPLIER = '20100070970';
const OTHER_SUPPLIER = '20512334890';
const CLIENT = '20603415800';
const OTHER_CLIENT = '20123456789';

const supplier = {
  sub: 's1',
  email: 'ana@demo.pe',
  firstName: 'Ana',
  lastName: 'Salazar',
  level: 'SUPPLIER',
  taxIds: [SUPPLIER],
} as unknown as Caller;
const manager = {
  sub: 'm1',
  email: 'carmen@grupo.pe',
  firstName: 'Carmen',
  lastName: 'Gutiérrez',
  level: 'MANAGER',
  taxIds: [CLIENT],
} as unknown as Caller;

function invoiceOf(overrides: Partial<Invoice> = {}): StoredInvoice {
  return storedInvoiceFixture({
    supplierId: SUPPLIER,
    supplierName: 'Proveedor S.A.C.',
    client: CLIENT,
    clientName: 'Corporación S.A.A.',
    ...overrides,
  });
}

/** The conversation of an invoice whose last message (of `messageCount`) came from `side`, at `at`. */
function lastMessageFrom(side: 'SUPPLIER' | 'STAFF', messageCount: number, at: string): Partial<Invoice> {
  return {
    conversation: {
      messageCount,
      lastMessageAt: at,
      lastMessageSide: side,
      waitingOn: side === 'SUPPLIER' ? 'STAFF' : 'SUPPLIER',
    },
  };
}

/** An invoice store in memory that commits as the real one does (version-guarded), failing `conflicts` times first. */
function setUp(options: { invoice?: StoredInvoice; conflicts?: number } = {}) {
  let stored: StoredInvoice = options.invoice ?? invoiceOf();
  let conflicts = options.conflicts ?? 0;
  const commits: InvoiceChange[] = [];
  const delivered: OutgoingMessage[] = [];
  const verified: { key: string; tenants: readonly string[] }[] = [];
  const useCases = conversationCalls({
    store: {
      get: async (supplierId, type, id) =>
        supplierId === stored.supplierId && type === stored.type && id === stored.id ? stored : null,
      commit: async (change) => {
        if (conflicts > 0) {
          conflicts -= 1;
          // Another writer got there first: the stored invoice moved on.
          stored = { ...stored, version: stored.version + 1 };
          throw new InvoiceChangedError();
        }
        if (change.before.version !== stored.version) throw new InvoiceChangedError();
        if (!change.whileStatusIn.includes(stored.status)) throw new InvoiceChangedError();
        commits.push(change);
        stored = { ...change.after, version: stored.version + 1 };
        return stored;
      },
    },
    conversations: {
      messagesOf: async () => [],
      message: async () => null,
      waitingCount: async () => 0,
    },
    outgoing: { deliver: async (messages) => void delivered.push(...messages) },
    verifyAttachment: async (key, tenants) => {
      verified.push({ key, tenants });
      return { key, size: 10, contentType: 'application/pdf', fileName: 'guía.pdf' };
    },
    downloadLink: async (key, fileName) => ({
      url: `https://files/${key}`,
      expiresAt: '2026-11-26T20:00:00Z',
      fileName,
    }),
    clock: () => new Date('2026-11-26T19:00:00.000Z'),
    randomHex: () => '0a1b2c3d',
  });
  return { useCases, commits, delivered, verified, stored: () => stored };
}

const path = { supplierId: SUPPLIER, invoiceType: 'FACTURA' as const, invoiceId: 'F001-1' };
const noticeOf = (message: OutgoingMessage) => NotificationMessage.parse(message.body);

describe('posting on an invoice', () => {
  it('commits the message, the summary and the notice to the other side in one change', async () => {
    const { useCases, commits, delivered } = setUp();
    const posted = await useCases.post(supplier, path, { text: '  Adjunto la guía  ', attachments: ['uploads/x.pdf'] });
    expect(posted.message).toMatchObject({
      id: '20261126T190000000Z-0a1b2c3d',
      authorName: 'Ana Salazar',
      authorRole: 'SUPPLIER',
      side: 'SUPPLIER',
      text: 'Adjunto la guía',
      observation: false,
    });
    expect(commits).toHaveLength(1);
    const [change] = commits;
    expect(change!.after.conversation).toEqual({
      messageCount: 1,
      lastMessageAt: '2026-11-26T19:00:00.000Z',
      lastMessageSide: 'SUPPLIER',
      waitingOn: 'STAFF',
    });
    const puts = change!.alsoPut!;
    expect(puts.find((item) => String(item.sk).startsWith('MSG#'))).toMatchObject({ text: 'Adjunto la guía' });
    expect(puts.some((item) => String(item.pk).startsWith('OUTGOING#notifications'))).toBe(true);
    expect(puts.some((item) => String(item.pk) === 'UPLOAD#uploads/x.pdf')).toBe(true);
    expect(delivered.map(noticeOf)).toMatchObject([
      { event: 'INVOICE_MESSAGE_FROM_SUPPLIER', detail: 'Adjunto la guía', invoiceId: 'F001-1' },
    ]);
  });

  it("checks attachments as uploads of the writer's own side of the invoice", async () => {
    const asSupplier = setUp();
    await asSupplier.useCases.post(supplier, path, { text: 'Guía', attachments: ['a', 'a', 'b'] });
    expect(asSupplier.verified).toEqual([
      { key: 'a', tenants: [SUPPLIER] },
      { key: 'b', tenants: [SUPPLIER] },
    ]);
    const asManager = setUp();
    await asManager.useCases.observe(manager, path, { text: 'Falta la guía', attachments: ['c'] });
    expect(asManager.verified).toEqual([{ key: 'c', tenants: [CLIENT] }]);
  });

  it('retries when another writer moved the invoice first, and lands once', async () => {
    const { useCases, commits, stored } = setUp({ conflicts: 2 });
    await useCases.post(manager, path, { text: 'Hola', attachments: [] });
    expect(commits).toHaveLength(1);
    expect(stored().conversation?.messageCount).toBe(1);
  });

  it('times a message after the last one committed, so that the list and the summary agree on the last', async () => {
    const ahead = invoiceOf(lastMessageFrom('SUPPLIER', 1, '2026-11-26T19:00:05.000Z'));
    const { useCases, stored } = setUp({ invoice: ahead });
    const posted = await useCases.post(manager, path, { text: 'Hola', attachments: [] });
    expect(posted.message.at).toBe('2026-11-26T19:00:05.001Z');
    expect(posted.message.id).toBe('20261126T190005001Z-0a1b2c3d');
    expect(stored().conversation).toMatchObject({ lastMessageAt: posted.message.at, lastMessageSide: 'STAFF' });
  });

  it('gives up with a conflict after repeated moves', async () => {
    const { useCases } = setUp({ conflicts: 99 });
    await expect(useCases.post(manager, path, { text: 'Hola', attachments: [] })).rejects.toBeInstanceOf(ConflictError);
  });

  it("answers another tenant's invoice as not found, before anything is checked or written", async () => {
    const foreign = setUp({ invoice: invoiceOf({ supplierId: OTHER_SUPPLIER }) });
    await expect(
      foreign.useCases.post(supplier, { ...path, supplierId: OTHER_SUPPLIER }, { text: 'Hola', attachments: ['k'] }),
    ).rejects.toBeInstanceOf(NotFoundError);
    const otherCompany = setUp({ invoice: invoiceOf({ client: OTHER_CLIENT }) });
    await expect(otherCompany.useCases.list(manager, path)).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      otherCompany.useCases.observe(manager, path, { text: 'Hola', attachments: ['k'] }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect([...foreign.verified, ...otherCompany.verified, ...foreign.commits, ...otherCompany.commits]).toEqual([]);
  });

  it('stops a conversation at its limit of messages', async () => {
    const full = invoiceOf(lastMessageFrom('STAFF', 200, '2026-11-26T18:00:00.000Z'));
    const { useCases, commits } = setUp({ invoice: full });
    await expect(useCases.post(supplier, path, { text: 'Uno más', attachments: [] })).rejects.toMatchObject({
      code: 'ERROR_MESSAGE_LIMIT_REACHED',
    });
    expect(commits).toEqual([]);
  });

  it('refuses empty and oversized text with its own codes', async () => {
    const { useCases, commits } = setUp();
    await expect(useCases.post(supplier, path, { text: ' \u0000 ', attachments: [] })).rejects.toMatchObject({
      code: 'ERROR_MESSAGE_EMPTY',
    });
    await expect(useCases.post(supplier, path, { text: 'x'.repeat(2001), attachments: [] })).rejects.toBeInstanceOf(
      BadRequestError,
    );
    expect(commits).toEqual([]);
  });
});

describe('the Observada mark', () => {
  it("observes with staff's message, tells the supplier, and the supplier's answer clears it", async () => {
    const { useCases, delivered, stored } = setUp();
    const observed = await useCases.observe(manager, path, { text: 'Adjunte la guía de remisión', attachments: [] });
    expect(observed.observation).toEqual({
      since: '2026-11-26T19:00:00.000Z',
      by: 'Carmen Gutiérrez',
      reason: 'Adjunte la guía de remisión',
    });
    expect(observed.message.observation).toBe(true);
    expect(noticeOf(delivered[0]!)).toMatchObject({ event: 'INVOICE_OBSERVED', detail: 'Adjunte la guía de remisión' });
    await useCases.post(supplier, path, { text: 'Adjunta', attachments: [] });
    expect(stored().observation).toBeNull();
    expect(stored().conversation?.waitingOn).toBe('STAFF');
  });

  it('is not put on a rejected or paid invoice', async () => {
    for (const status of ['REJECTED', 'PAID'] as const) {
      const { useCases } = setUp({ invoice: invoiceOf({ status }) });
      await expect(useCases.observe(manager, path, { text: 'Falta', attachments: [] })).rejects.toMatchObject({
        code: 'ERROR_OBSERVE_INVOICE_CLOSED',
      });
    }
  });

  it('is taken off by staff, and a second clear says it is not observed', async () => {
    const { useCases, stored } = setUp();
    await useCases.observe(manager, path, { text: 'Falta la guía', attachments: [] });
    await useCases.clear(manager, path);
    expect(stored().observation).toBeNull();
    expect(stored().conversation?.waitingOn).toBeNull();
    await expect(useCases.clear(manager, path)).rejects.toMatchObject({ code: 'ERROR_INVOICE_NOT_OBSERVED' });
  });
});

describe("a message's attachment", () => {
  it('is a download of a message of an invoice within reach; another message or position is not found', async () => {
    const message: InvoiceMessage = {
      id: '20261126T190000000Z-0a1b2c3d',
      at: '2026-11-26T19:00:00.000Z',
      authorName: 'Ana',
      authorRole: 'SUPPLIER',
      side: 'SUPPLIER',
      text: 'Guía',
      attachments: [{ key: 'uploads/g.pdf', fileName: 'guía.pdf', contentType: 'application/pdf', size: 9 }],
      observation: false,
    };
    const withMessage = fileLinkOf(message);
    await expect(withMessage(0)).resolves.toMatchObject({ fileName: 'guía.pdf' });
    await expect(withMessage(1)).rejects.toMatchObject({ code: 'ERROR_FILE_NOT_FOUND' });
    await expect(fileLinkOf(message, '20261126T190000000Z-ffffffff')(0)).rejects.toMatchObject({
      code: 'ERROR_MESSAGE_NOT_FOUND',
    });
  });
});

/** The file link of message `askedId` at `index`, through a use case whose repository holds `message`. */
function fileLinkOf(message: InvoiceMessage, askedId = message.id) {
  const useCases = conversationCalls({
    store: { get: async () => invoiceOf(), commit: async () => invoiceOf() },
    conversations: {
      messagesOf: async () => [message],
      message: async (_invoice, id) => (id === message.id ? message : null),
      waitingCount: async () => 0,
    },
    outgoing: { deliver: async () => undefined },
    verifyAttachment: async () => {
      throw new Error('unused');
    },
    downloadLink: async (key, fileName) => ({
      url: `https://files/${key}`,
      expiresAt: '2026-11-26T20:00:00Z',
      fileName,
    }),
    clock: () => new Date(),
    randomHex: () => '00000000',
  });
  return (index: number) => useCases.fileLink(supplier, { ...path, messageId: askedId }, { index });
}

describe("the header's count", () => {
  it('counts a supplier over its RUCs, staff over their companies, an administrator over every company', async () => {
    const asked: { side: string; owners: readonly string[] }[] = [];
    const useCases = conversationCalls({
      store: { get: async () => null, commit: async () => invoiceOf() },
      conversations: {
        messagesOf: async () => [],
        message: async () => null,
        waitingCount: async (side, owners) => {
          asked.push({ side, owners });
          return owners.length;
        },
      },
      outgoing: { deliver: async () => undefined },
      allCompanies: async () => [CLIENT, OTHER_CLIENT],
      clock: () => new Date(),
      randomHex: () => '00000000',
    });
    const admin = { ...manager, level: 'ADMIN', taxIds: [] } as unknown as Caller;
    expect(await useCases.waitingCount(supplier)).toEqual({ count: 1 });
    expect(await useCases.waitingCount(manager)).toEqual({ count: 1 });
    expect(await useCases.waitingCount(admin)).toEqual({ count: 2 });
    expect(asked).toEqual([
      { side: 'SUPPLIER', owners: [SUPPLIER] },
      { side: 'STAFF', owners: [CLIENT] },
      { side: 'STAFF', owners: [CLIENT, OTHER_CLIENT] },
    ]);
  });
});
