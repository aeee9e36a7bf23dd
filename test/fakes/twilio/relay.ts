import crypto from 'node:crypto';
import twilio from 'twilio';
import WebSocket from 'ws';

// A fake Twilio ConversationRelay client: opens the app's relay WebSocket the way Twilio does
// (X-Twilio-Signature over the relay URL of the TwiML, no parameters), sends Twilio's messages
// (setup, prompt, interrupt, dtmf) and records what the app sends back (text tokens, end).

export type RelayText = { type: 'text'; token: string; last: boolean; at: bigint };
export type RelayOut = RelayText | { type: 'end'; at: bigint } | { type: string; at: bigint; [key: string]: unknown };

export type RelayClient = {
  ws: WebSocket;
  received: RelayOut[];
  send(message: Record<string, unknown>): void;
  setup(options: { callSid: string; callId: string; from?: string; to?: string; direction?: string }): void;
  /** A final prompt, as Twilio sends it when the caller stops speaking. */
  prompt(voicePrompt: string): bigint;
  /** Resolves with the tokens of the next reply, up to and including the one with last: true. */
  nextReply(): Promise<{ tokens: RelayText[]; text: string }>;
  /** Resolves once `count` text tokens (of any reply) have arrived since the call. */
  waitForTokens(count: number): Promise<RelayText[]>;
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
};

export const newCallSid = () => `CA${crypto.randomBytes(16).toString('hex')}`;

/**
 * Connects to `targetUrl` (the app's socket) signing `signedUrl` (the URL in the TwiML) with
 * `authToken`; `signature: null` sends none. Rejects with the HTTP status when the handshake is refused.
 */
export function connectRelay(options: { targetUrl: string; signedUrl: string; authToken: string; signature?: string | null }): Promise<RelayClient> {
  const signature = options.signature === undefined ? twilio.getExpectedTwilioSignature(options.authToken, options.signedUrl, {}) : options.signature;
  // Twilio connects to the URL of the TwiML, its query included: the test's target gets that query.
  const target = new URL(options.targetUrl);
  if (!target.search) target.search = new URL(options.signedUrl).search;
  const ws = new WebSocket(target.toString(), { headers: signature ? { 'x-twilio-signature': signature } : {} });
  const received: RelayOut[] = [];
  let cursor = 0;
  const waiters = new Set<() => void>();
  ws.on('message', (data) => {
    received.push({ ...JSON.parse(data.toString()), at: process.hrtime.bigint() });
    for (const wake of [...waiters]) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  const waitUntil = (ready: () => boolean) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (ready()) {
          waiters.delete(check);
          ws.off('close', check);
          resolve();
        } else if (ws.readyState === WebSocket.CLOSED) {
          waiters.delete(check);
          ws.off('close', check);
          reject(new Error('The relay socket closed'));
        }
      };
      waiters.add(check);
      ws.once('close', check);
      check();
    });
  const client: RelayClient = {
    ws,
    received,
    send: (message) => ws.send(JSON.stringify(message)),
    setup: ({ callSid, callId, from = '+15551230000', to = '+15550001111', direction = 'inbound' }) =>
      client.send({
        type: 'setup',
        sessionId: `VX${crypto.randomBytes(16).toString('hex')}`,
        callSid,
        parentCallSid: '',
        from,
        to,
        forwardedFrom: to,
        callerName: '',
        direction,
        callType: 'PSTN',
        callStatus: 'RINGING',
        accountSid: `AC${'0'.repeat(32)}`,
        applicationSid: null,
        customParameters: { callId },
      }),
    prompt: (voicePrompt) => {
      client.send({ type: 'prompt', voicePrompt, lang: 'en-US', last: true });
      return process.hrtime.bigint();
    },
    async nextReply() {
      await waitUntil(() => received.slice(cursor).some((m) => m.type === 'text' && (m as RelayText).last));
      const end = received.findIndex((m, i) => i >= cursor && m.type === 'text' && (m as RelayText).last);
      const tokens = received.slice(cursor, end + 1).filter((m): m is RelayText => m.type === 'text');
      cursor = end + 1;
      return { tokens, text: tokens.map((t) => t.token).join('') };
    },
    async waitForTokens(count) {
      const start = cursor;
      await waitUntil(() => received.slice(start).filter((m) => m.type === 'text').length >= count);
      return received.slice(start).filter((m): m is RelayText => m.type === 'text').slice(0, count);
    },
    closed,
    close: () => ws.close(),
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(client));
    ws.once('unexpected-response', (_req, res) => reject(Object.assign(new Error(`handshake refused: ${res.statusCode}`), { status: res.statusCode })));
    ws.once('error', reject);
  });
}
