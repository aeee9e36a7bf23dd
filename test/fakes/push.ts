import crypto from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { testTlsOptions } from './tls.js';

// A local web push service, as a browser vendor's would answer the app (RFC 8030, 8291, 8292):
// each subscription made here has its own P-256 key pair and auth secret, as a browser's has.
// A push must carry `Authorization: vapid t=<JWT>, k=<public key>` whose ES256 signature, audience
// (this service's origin), expiry and subject are checked, and `Content-Encoding: aes128gcm` with
// a body this service decrypts with the subscription's private key; anything else is refused
// (400/401/403) and recorded. An endpoint marked gone answers 404 or 410; one black-holed takes the
// request and never answers (a service that hangs). `connections` counts the TCP connections made
// to it, so a test sees that the app did not even connect.

export type FakePush = { endpoint: string; vapidPublicKey: string; claims: Record<string, unknown>; ttl: string | null; payload: unknown };
export type FakePushService = {
  url: string;
  /** A new subscription, as PushManager.subscribe() would give it to the page. */
  subscribe(): { endpoint: string; keys: { p256dh: string; auth: string } };
  /** From now on this endpoint answers `status` (the subscription expired or was removed). */
  gone(endpoint: string, status: 404 | 410): void;
  /** From now on this endpoint takes the request and never answers. */
  blackHole(endpoint: string): void;
  /** TCP connections made to the service so far. */
  readonly connections: number;
  received: FakePush[];
  refused: Array<{ endpoint: string; status: number; reason: string }>;
  close(): Promise<void>;
};

const b64 = (data: string) => Buffer.from(data, 'base64url');

function hkdf(salt: Buffer, ikm: Buffer, info: Buffer, length: number): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', ikm, salt, info, length));
}

/** RFC 8291: one aes128gcm record (the app's payloads are small). */
function decrypt(body: Buffer, ua: crypto.ECDH, authSecret: Buffer): string {
  const salt = body.subarray(0, 16);
  const idLength = body[20]!;
  const asPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const shared = ua.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ua.getPublicKey(), asPublic]);
  const ikm = hkdf(authSecret, shared, keyInfo, 32);
  const cek = hkdf(salt, ikm, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = hkdf(salt, ikm, Buffer.from('Content-Encoding: nonce\0'), 12);
  const decipher = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const plain = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then optional zero padding.
  let end = plain.length;
  while (end > 0 && plain[end - 1] === 0) end -= 1;
  if (plain[end - 1] !== 2) throw new Error('no last-record delimiter');
  return plain.subarray(0, end - 1).toString('utf8');
}

function verifyVapid(header: string | undefined, origin: string): { key: string; claims: Record<string, unknown> } | string {
  const match = /^vapid t=([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+), k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!match) return 'Authorization is not "vapid t=…, k=…"';
  const [head, claimsPart, signature] = match[1]!.split('.') as [string, string, string];
  const key = b64(match[2]!);
  if (key.length !== 65 || key[0] !== 4) return 'k is not an uncompressed P-256 public key';
  const publicKey = crypto.createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: key.subarray(1, 33).toString('base64url'), y: key.subarray(33).toString('base64url') }, format: 'jwk' });
  const header_ = JSON.parse(b64(head).toString()) as { alg?: string };
  if (header_.alg !== 'ES256') return 'the JWT is not ES256';
  if (!crypto.verify('sha256', Buffer.from(`${head}.${claimsPart}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, b64(signature))) return 'the JWT signature does not verify with k';
  const claims = JSON.parse(b64(claimsPart).toString()) as Record<string, unknown>;
  const now = Math.floor(Date.now() / 1000);
  if (claims.aud !== origin) return `aud is ${String(claims.aud)}, not ${origin}`;
  if (typeof claims.exp !== 'number' || claims.exp <= now || claims.exp > now + 24 * 3600) return 'exp is not within the next 24 hours';
  if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) return 'sub is not a mailto: or https: contact';
  return { key: match[2]!, claims };
}

/** `hostName`: the name in its endpoints (and the VAPID audience it expects): 127.0.0.1, or localhost (both in its certificate). */
export async function startFakePushService(options: { hostName?: '127.0.0.1' | 'localhost' } = {}): Promise<FakePushService> {
  const subscriptions = new Map<string, { ua: crypto.ECDH; auth: Buffer; gone?: 404 | 410; blackHole?: boolean }>();
  let connections = 0;
  const received: FakePush[] = [];
  const refused: FakePushService['refused'] = [];
  let origin = '';
  const server = https.createServer(testTlsOptions(), (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const endpoint = `${origin}${req.url}`;
      const refuse = (status: number, reason: string) => {
        refused.push({ endpoint, status, reason });
        res.writeHead(status, { 'content-type': 'text/plain' }).end(reason);
      };
      const id = /^\/push\/([a-f0-9]+)$/.exec(req.url ?? '')?.[1];
      const sub = id ? subscriptions.get(id) : undefined;
      if (req.method !== 'POST' || !sub) return refuse(404, 'no such subscription');
      if (sub.gone) return refuse(sub.gone, 'subscription gone');
      if (sub.blackHole) return;
      const vapid = verifyVapid(req.headers.authorization, origin);
      if (typeof vapid === 'string') return refuse(401, vapid);
      if (req.headers['content-encoding'] !== 'aes128gcm') return refuse(400, `Content-Encoding is ${String(req.headers['content-encoding'])}, not aes128gcm`);
      if (!req.headers.ttl) return refuse(400, 'no TTL header');
      let payload: unknown;
      try {
        payload = JSON.parse(decrypt(Buffer.concat(chunks), sub.ua, sub.auth));
      } catch (error) {
        return refuse(400, `the payload does not decrypt: ${(error as Error).message}`);
      }
      received.push({ endpoint, vapidPublicKey: vapid.key, claims: vapid.claims, ttl: String(req.headers.ttl), payload });
      res.writeHead(201, { location: `${endpoint}/message/${received.length}` }).end();
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://${options.hostName ?? '127.0.0.1'}:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    subscribe() {
      const id = crypto.randomBytes(8).toString('hex');
      const ua = crypto.createECDH('prime256v1');
      ua.generateKeys();
      const auth = crypto.randomBytes(16);
      subscriptions.set(id, { ua, auth });
      return { endpoint: `${origin}/push/${id}`, keys: { p256dh: ua.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } };
    },
    gone(endpoint, status) {
      const id = endpoint.split('/').at(-1)!;
      const sub = subscriptions.get(id);
      if (sub) sub.gone = status;
    },
    blackHole(endpoint) {
      const sub = subscriptions.get(endpoint.split('/').at(-1)!);
      if (sub) sub.blackHole = true;
    },
    get connections() {
      return connections;
    },
    received,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
