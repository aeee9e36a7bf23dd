import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CalendarSubscription } from '../../src/server/db/entities/CalendarSubscription.js';
import { graphNotificationLimit } from '../../src/server/features/limits/rateLimits.js';
import { signUp } from '../helpers/clients.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Graph change notifications: a request holds at most 100 items, and a subscription
// delivers at most graphNotificationLimit.perSubscriptionPerMinute accepted notifications a
// minute (each drops the user's calendar cache, so the next read asks Graph again).
describe('Graph change notifications are bounded', { timeout: 120_000 }, () => {
  let server: TestServer;
  const clientState = crypto.randomBytes(32).toString('base64url');
  const subscriptionId = `sub-${crypto.randomBytes(8).toString('hex')}`;

  beforeAll(async () => {
    server = await startTestServer({ DEMO_MODE: 'false', PUBLIC_URL: 'https://coach.example.test' });
    const { user } = await signUp(server.url, 'notified-user');
    const em = server.deps.orm.em.fork();
    em.create(CalendarSubscription, {
      user: user.id,
      graphSubscriptionId: subscriptionId,
      clientStateHash: crypto.createHash('sha256').update(clientState).digest('hex'),
      expiresAt: new Date(Date.now() + 24 * 3600_000),
    });
    await em.flush();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  const notify = (items: unknown[]) =>
    fetch(`${server.url}/api/microsoft/notifications`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ value: items }) });
  const item = { subscriptionId, clientState, changeType: 'updated', resource: 'me/events/1' };

  it('refuses a request of more than 100 items', async () => {
    const res = await notify(Array.from({ length: graphNotificationLimit.itemsPerRequest + 1 }, () => item));
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/at most 100 items/);
  });

  it('accepts a subscription\'s notifications up to its rate a minute, then answers 429 with Retry-After; many items of one subscription in a request count once', async () => {
    // 100 items of the same subscription: one notification.
    expect((await notify(Array.from({ length: 100 }, () => item))).status).toBe(202);
    for (let i = 1; i < graphNotificationLimit.perSubscriptionPerMinute; i++) expect((await notify([item])).status).toBe(202);
    const limited = await notify([item]);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // A forged clientState is still refused as such.
    expect((await notify([{ ...item, clientState: 'forged' }])).status).toBe(403);
  });
});
