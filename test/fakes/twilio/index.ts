import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import twilio from 'twilio';

// A local server speaking Twilio's Calls API (POST /2010-04-01/Accounts/{Sid}/Calls.json, form
// encoded, HTTP basic auth with the account SID and auth token) and Messages API (POST
// /2010-04-01/Accounts/{Sid}/Messages.json: To, From, Body), reached by the real twilio SDK
// through the app's origin-rewriting RequestClient. Errors come in Twilio's JSON shape.

export type FakeCall = { sid: string; accountSid: string; to: string; from: string; url: string; statusCallback?: string; method?: string; twiml?: string };

export type FakeMessage = { sid: string; accountSid: string; to: string; from: string; body: string };

export type FakeTwilio = {
  /** For TWILIO_API_BASE_URL. */
  url: string;
  accountSid: string;
  authToken: string;
  calls: FakeCall[];
  /** Text messages sent, oldest first. */
  messages: FakeMessage[];
  /** Requests refused (bad auth, bad number), with Twilio's error code. */
  refused: Array<{ status: number; code: number }>;
  /** Numbers the account may not call: a call to one is refused as Twilio does (21215, geo permissions). */
  refuseCallsTo: Set<string>;
  close(): Promise<void>;
};

export const fakeAccountSid = `AC${'0123456789abcdef'.repeat(2)}`;
export const fakeAuthToken = 'fake-twilio-auth-token-0123456789';

export async function startFakeTwilio(options: { port?: number; accountSid?: string; authToken?: string } = {}): Promise<FakeTwilio> {
  const accountSid = options.accountSid ?? fakeAccountSid;
  const authToken = options.authToken ?? fakeAuthToken;
  const sockets = new Set<Socket>();
  const fake: FakeTwilio = {
    url: '',
    accountSid,
    authToken,
    calls: [],
    messages: [],
    refused: [],
    refuseCallsTo: new Set(),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };

  const server = http.createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    if (req.method === 'GET' && path === '/healthz') return void res.end('ok');
    // For a test in another process (Playwright): the texts sent so far, as the phone would show them.
    if (req.method === 'GET' && path === '/fake/messages') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      return void res.end(JSON.stringify(fake.messages));
    }
    const match = /^\/2010-04-01\/Accounts\/([^/]+)\/(Calls|Messages)\.json$/.exec(path);
    if (!match || req.method !== 'POST') return fail(res, 404, 20404, 'The requested resource was not found');
    const [user, pass] = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString().split(':');
    if (user !== accountSid || pass !== authToken || match[1] !== accountSid) return fail(res, 401, 20003, 'Authenticate');
    const form = new URLSearchParams(await readBody(req));
    if (match[2] === 'Messages') return message(res, form);
    const to = form.get('To') ?? '';
    const from = form.get('From') ?? '';
    const url = form.get('Url') ?? '';
    const twiml = form.get('Twiml') ?? undefined;
    if (!/^\+[1-9]\d{6,14}$/.test(to)) return fail(res, 400, 21211, `The 'To' number ${to} is not a valid phone number.`);
    if (!from) return fail(res, 400, 21603, "A 'From' phone number is required.");
    if (!url && !twiml) return fail(res, 400, 21205, 'Url or Twiml is required.');
    if (fake.refuseCallsTo.has(to)) return fail(res, 400, 21215, `Account not authorized to call ${to}. Perhaps you need to enable some international permissions.`);
    const sid = `CA${crypto.randomBytes(16).toString('hex')}`;
    const call: FakeCall = { sid, accountSid, to, from, url, statusCallback: form.get('StatusCallback') ?? undefined, method: form.get('Method') ?? undefined, twiml };
    fake.calls.push(call);
    const now = new Date().toUTCString();
    res.writeHead(201, { 'Content-Type': 'application/json' });
    res.end(
      JSON.stringify({
        sid,
        account_sid: accountSid,
        to,
        to_formatted: to,
        from,
        from_formatted: from,
        status: 'queued',
        direction: 'outbound-api',
        date_created: now,
        date_updated: now,
        api_version: '2010-04-01',
        uri: `/2010-04-01/Accounts/${accountSid}/Calls/${sid}.json`,
      }),
    );
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  function message(res: http.ServerResponse, form: URLSearchParams) {
    const to = form.get('To') ?? '';
    const from = form.get('From') ?? '';
    const body = form.get('Body') ?? '';
    if (!/^\+[1-9]\d{6,14}$/.test(to)) return fail(res, 400, 21211, `The 'To' number ${to} is not a valid phone number.`);
    if (!from) return fail(res, 400, 21603, "A 'From' phone number is required.");
    if (!body) return fail(res, 400, 21602, 'Message body is required.');
    if (body.length > 1600) return fail(res, 400, 21617, 'The concatenated message body exceeds the 1600 character limit.');
    const sid = `SM${crypto.randomBytes(16).toString('hex')}`;
    fake.messages.push({ sid, accountSid, to, from, body });
    const now = new Date().toUTCString();
    res.writeHead(201, { 'Content-Type': 'application/json' });
    res.end(
      JSON.stringify({
        sid,
        account_sid: accountSid,
        to,
        from,
        body,
        status: 'queued',
        direction: 'outbound-api',
        num_segments: String(Math.ceil(body.length / 153) || 1),
        num_media: '0',
        messaging_service_sid: null,
        price: null,
        price_unit: 'USD',
        error_code: null,
        error_message: null,
        date_created: now,
        date_updated: now,
        date_sent: null,
        api_version: '2010-04-01',
        uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json`,
        subresource_uris: { media: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}/Media.json` },
      }),
    );
  }

  function fail(res: http.ServerResponse, status: number, code: number, message: string) {
    fake.refused.push({ status, code });
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

/**
 * Posts a webhook the way Twilio does: form-encoded parameters, signed with the SDK's own helper
 * for `signedUrl` (the public URL Twilio believes it calls), sent to `targetUrl` (the app).
 */
export async function postSignedWebhook(options: {
  authToken: string;
  signedUrl: string;
  targetUrl: string;
  params: Record<string, string>;
  /** Overrides what is sent, after signing (an altered request). */
  sentParams?: Record<string, string>;
  signature?: string | null;
}) {
  const signature = options.signature === undefined ? twilio.getExpectedTwilioSignature(options.authToken, options.signedUrl, options.params) : options.signature;
  const res = await fetch(options.targetUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(signature ? { 'x-twilio-signature': signature } : {}) },
    body: new URLSearchParams(options.sentParams ?? options.params).toString(),
  });
  return { status: res.status, text: await res.text(), contentType: res.headers.get('content-type') ?? '' };
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}
