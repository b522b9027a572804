import { observed } from '../http/observed.js';
import { outgoing } from '../use-cases/outgoing.factory.js';

/** Messages younger than this may still be on their way from the request that committed them. */
const GRACE_MS = 60_000;

/** The MessageRelay schedule (SCHEDULES.messageRelay): EventBridge in AWS, a timer on the local stage. */
export const handler = observed(async (): Promise<{ sent: number }> => ({
  sent: await outgoing.relay(new Date(Date.now() - GRACE_MS)),
}));
