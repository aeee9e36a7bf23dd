import { describe, expect, it, vi } from 'vitest';
import { chatTexts } from '../../src/shared/texts/index.js';
import { signUp } from '../helpers/clients.js';
import { HttpClient, startTestServer } from '../helpers/server.js';
import { expectRetryAfterUtcMidnight, trpcBatch } from '../helpers/trust.js';

// The daily model quota: taken before the model, given back on failure, 429 with Retry-After to UTC
// midnight; one budget for every guest space of an address.

// Each test starts servers of its own.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

describe('the daily model quota', () => {
  it('takes a turn before the model, gives it back when the request fails, and answers 429 with Retry-After', async () => {
    const quota = await startTestServer({ DEMO_MODE: 'false', MODEL_DAILY_QUOTA: '2' });
    try {
      const { http } = await signUp(quota.url, 'daily_quota');
      // A message to a chat that is not there fails before the model: its turn is given back.
      expect((await http.post('/api/chats/999999/messages', { content: 'nowhere' })).status).toBe(404);
      const chats = [(await http.post('/api/chats')).json, (await http.post('/api/chats')).json];
      for (const [i, chat] of chats.entries()) {
        expect((await http.post(`/api/chats/${chat.id}/messages`, { content: `turn ${i}` })).status).toBe(201);
      }
      const refused = await http.post(`/api/chats/${chats[0].id}/messages`, { content: 'one more' });
      expect(refused.status).toBe(429);
      expect(refused.json.message).toBe(chatTexts.dailyQuotaSpent(2));
      expectRetryAfterUtcMidnight(refused.headers);
      const viaTrpc = await trpcBatch(http, [{ path: 'chats.send', input: { chatId: chats[1].id, content: 'one more' } }]);
      expect(viaTrpc.json[0].error.data.httpStatus).toBe(429);
      expectRetryAfterUtcMidnight(viaTrpc.headers);
      const viaOpenAi = await http.post('/api/openai/chat/completions', { model: 'x', messages: [{ role: 'user', content: 'hi' }] });
      expect(viaOpenAi.status).toBe(429);
      expectRetryAfterUtcMidnight(viaOpenAi.headers);
      // Another user has a quota of their own.
      const other = await signUp(quota.url, 'daily_quota_other');
      expect((await other.http.post(`/api/chats/${(await other.http.post('/api/chats')).json.id}/messages`, { content: 'mine' })).status).toBe(201);
    } finally {
      await quota.stop();
    }
  });
});

describe('the daily model quota of guest spaces', () => {
  it('is one budget for every guest from an address: a new guest space does not bring a new day of turns', async () => {
    const quota = await startTestServer({ DEMO_MODE: 'true', MODEL_DAILY_QUOTA: '2', RATE_LIMIT_GUEST_PER_HOUR: '0' });
    try {
      // Each client without cookies becomes a guest of its own on its first write.
      const newGuest = async () => {
        const http = new HttpClient(quota.url);
        const chat = await http.post('/api/chats', { title: 'Guest' });
        expect(chat.status).toBe(201);
        return { http, chatId: chat.json.id as number };
      };
      const first = await newGuest();
      expect((await first.http.post(`/api/chats/${first.chatId}/messages`, { content: 'turn 1' })).status).toBe(201);
      const second = await newGuest();
      expect((await second.http.get('/api/auth/session')).json.user.id).not.toBe((await first.http.get('/api/auth/session')).json.user.id);
      expect((await second.http.post(`/api/chats/${second.chatId}/messages`, { content: 'turn 2' })).status).toBe(201);
      const third = await newGuest();
      const refused = await third.http.post(`/api/chats/${third.chatId}/messages`, { content: 'turn 3' });
      expect(refused.status).toBe(429);
      expect(refused.json.message).toBe(chatTexts.dailyQuotaSpent(2));
      expectRetryAfterUtcMidnight(refused.headers);
      // A registered account keeps a budget of its own, whatever the guests of its address spent.
      const { http } = await signUp(quota.url, 'quota_after_guests');
      const chat = (await http.post('/api/chats')).json;
      expect((await http.post(`/api/chats/${chat.id}/messages`, { content: 'mine' })).status).toBe(201);
    } finally {
      await quota.stop();
    }
  });
});
