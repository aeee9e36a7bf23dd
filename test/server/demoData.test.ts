import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { User } from '../../src/server/db/entities/User.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// The demo account and its sample chats exist only while demo mode is on.

// A server with demo mode off, as every account-only deployment runs; the test starts more.
let server: TestServer;

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

beforeAll(async () => {
  server = await startTestServer({ DEMO_MODE: 'false' });
});
afterAll(async () => {
  await server?.stop();
});

describe('demo data', () => {
  it('exists only while demo mode is on, created at start (idempotent)', async () => {
    const demoUsers = async (s: TestServer) => s.deps.orm.em.fork().count(User, { isDemo: true });
    expect(await demoUsers(server)).toBe(0);
    const demo = await startTestServer({ DEMO_MODE: 'true' });
    try {
      expect(await demoUsers(demo)).toBe(1);
      const chats = (await new HttpClient(demo.url).get('/api/chats')).json as Array<{ id: number; title: string }>;
      // The four sample chats are 1 to 4; the example rehearsal's and weekly review's come after.
      expect(chats.map((c) => c.id).sort()).toEqual([1, 2, 3, 4, 5, 6]);
      await demo.close();
      const again = await startTestServer({ DEMO_MODE: 'true' }, demo.database);
      expect(await demoUsers(again)).toBe(1);
      expect((await new HttpClient(again.url).get('/api/chats')).json).toHaveLength(6);
      await again.close();
      const off = await startTestServer({ DEMO_MODE: 'false' }, demo.database);
      expect(await demoUsers(off)).toBe(0);
      await off.close();
    } finally {
      await demo.stop();
    }
  });
});
