import { describe, expect, it } from 'vitest';
import { DEFAULT_PREFERENCES, type StoredPreferences } from '@portal/shared';
import type { Email } from '../adapters/email.js';
import type { Audience, FeedItem, Recipient } from '../repositories/notifications.js';
import {
  deliverPersonalNotice,
  type PersonalNotice,
  type PersonalNoticeDeps,
} from './notifications/deliver-personal-notice.js';

/** The personal notices bound to one set of ports, as the intake-batches worker calls them. */
const makePersonalNotices = (deps: PersonalNoticeDeps) => ({
  deliver: (user: { userId: string; taxId: string }, notice: PersonalNotice) =>
    deliverPersonalNotice(deps, user, notice),
});

const NOTICE: PersonalNotice = {
  id: 'intake-batch-1-done',
  registeredAt: '2026-03-05T15:00:00.000Z',
  text: 'Se procesó su ZIP «marzo.zip»: 2 comprobantes aceptados, 0 ya existían y 0 rechazados.',
  subject: 'Portal de Proveedores · Carga de ZIP marzo.zip',
  path: '/invoices?zip=1',
  kind: 'ZIP_PROCESSED',
};

function setUp(recipients: Recipient[], chosen: StoredPreferences = DEFAULT_PREFERENCES) {
  const feed: { audiences: readonly Audience[]; item: FeedItem }[] = [];
  const claims = new Set<string>();
  const sent: Email[] = [];
  const notices = makePersonalNotices({
    repository: {
      record: async (audiences, item) => {
        if (!feed.some((each) => each.item.id === item.id)) feed.push({ audiences, item });
      },
      recipients: async () => recipients,
      preferences: async () => chosen,
      claimEmail: async (id, userId) => {
        if (claims.has(`${id}#${userId}`)) return false;
        claims.add(`${id}#${userId}`);
        return true;
      },
      releaseEmail: async (id, userId) => {
        claims.delete(`${id}#${userId}`);
      },
    },
    mailer: {
      send: async (email) => {
        sent.push(email);
      },
    },
    clock: () => new Date(NOTICE.registeredAt),
    portalUrl: 'https://proveedores.grupo.pe/',
  });
  return { notices, feed, sent };
}

describe("a person's own notice", () => {
  it('goes to their own feed and, with their reception on, once to their mailbox with the link', async () => {
    const { notices, feed, sent } = setUp([
      { userId: 'ana', email: 'ana@proveedor.pe', canReceiveEmails: true },
      { userId: 'beto', email: 'beto@proveedor.pe', canReceiveEmails: true },
    ]);
    await notices.deliver({ userId: 'ana', taxId: '20512345678' }, NOTICE);
    await notices.deliver({ userId: 'ana', taxId: '20512345678' }, NOTICE);

    expect(feed).toEqual([
      { audiences: [{ kind: 'USER', taxId: 'ana' }], item: expect.objectContaining({ message: NOTICE.text }) },
    ]);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to: 'ana@proveedor.pe', subject: NOTICE.subject });
    expect(sent[0]!.text).toContain('https://proveedores.grupo.pe/invoices?zip=1');
  });

  it('is not mailed when their reception is off, nor to their colleagues', async () => {
    const { notices, feed, sent } = setUp([
      { userId: 'ana', email: 'ana@proveedor.pe', canReceiveEmails: false },
      { userId: 'beto', email: 'beto@proveedor.pe', canReceiveEmails: true },
    ]);
    await expect(notices.deliver({ userId: 'ana', taxId: '20512345678' }, NOTICE)).resolves.toEqual({
      emailed: false,
    });
    expect(feed).toHaveLength(1);
    expect(sent).toEqual([]);
  });

  it('is not mailed when they turned that kind of notice off by e-mail, and stays in their feed', async () => {
    const { notices, feed, sent } = setUp([{ userId: 'ana', email: 'ana@proveedor.pe', canReceiveEmails: true }], {
      feedOff: [],
      emailOff: ['ZIP_PROCESSED'],
    });
    await expect(notices.deliver({ userId: 'ana', taxId: '20512345678' }, NOTICE)).resolves.toEqual({
      emailed: false,
    });
    expect(feed).toEqual([
      {
        audiences: [{ kind: 'USER', taxId: 'ana' }],
        item: expect.objectContaining({ kind: 'ZIP_PROCESSED' }),
      },
    ]);
    expect(sent).toEqual([]);
  });
});
