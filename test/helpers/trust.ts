import WebSocket from 'ws';
import { expect } from 'vitest';
import type { HttpClient } from './server.js';

// Helpers of the trust tests (sessions, limits, quotas): a socket that reports how it opened and
// closed, a raw tRPC batch, and the Retry-After of a limit that resets at UTC midnight.

export function openSocket(path: '/ws' | '/trpc', cookie: string, baseUrl: string) {
  const ws = new WebSocket(`${baseUrl.replace('http', 'ws')}${path}`, { headers: { cookie, origin: baseUrl } });
  const frames: any[] = [];
  ws.on('message', (data) => frames.push(JSON.parse(data.toString())));
  const outcome = new Promise<'open' | number>((resolve) => {
    ws.once('open', () => resolve('open'));
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', () => resolve(0));
  });
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  return { ws, frames, outcome, closed };
}

export function trpcBatch(http: HttpClient, calls: Array<{ path: string; input: unknown }>) {
  const paths = calls.map((c) => c.path).join(',');
  const body = Object.fromEntries(calls.map((c, i) => [i, c.input]));
  return http.post(`/trpc/${paths}?batch=1`, body);
}

export function expectRetryAfterUtcMidnight(headers: Headers) {
  const midnight = new Date();
  midnight.setUTCHours(24, 0, 0, 0);
  const expected = Math.ceil((midnight.getTime() - Date.now()) / 1000);
  const retryAfter = headers.get('retry-after');
  expect(retryAfter).toMatch(/^\d+$/);
  // Seconds to the next UTC midnight (a test running across midnight sees a whole day more).
  expect(Math.abs(Number(retryAfter) - expected) % 86_400).toBeLessThan(10);
}
