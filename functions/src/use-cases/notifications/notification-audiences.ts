import type { NotificationAudience } from '@portal/shared';
import type { Caller } from '../../http/caller.js';
import type { Audience, NotificationRepository } from '../../repositories/notifications.js';

/** How many notifications the header's panel shows (spec §2: recent notifications). */
export const RECENT_LIMIT = 20;

/** What the API serves of the notifications reads and writes: the caller's feed, read mark and preferences. */
export interface NotificationFeedDeps {
  readonly repository: NotificationRepository;
  readonly clock: () => Date;
}

/** A supplier reads the feeds of its RUCs; staff read the feeds of their companies; everyone reads its own. */
export function audiencesOfCaller(caller: Caller): Audience[] {
  const kind = caller.level === 'SUPPLIER' ? 'SUPPLIER' : 'CLIENT';
  return [...caller.taxIds.map((taxId): Audience => ({ kind, taxId })), { kind: 'USER', taxId: caller.sub }];
}

/** Whose notices a caller chooses about: a supplier's users those of the supplier, everyone else the staff's. */
export const preferenceAudienceOf = (caller: Caller): NotificationAudience =>
  caller.level === 'SUPPLIER' ? 'supplier' : 'client';
