import type { Agent } from 'node:https';
import webpush from 'web-push';
import type { Config } from '../../config.js';
import { vapidKeys, type VapidKeys } from './vapid.js';

// Web push through the web-push library: the payload encrypted (aes128gcm) and signed with the
// VAPID key pair (vapid.ts), read or generated on first use and kept by this sender (one per
// server, built by compose.ts).

export type PushTarget = { endpoint: string; keys: { p256dh: string; auth: string } };

export interface PushSender {
  /** The VAPID public key browsers subscribe with. */
  publicKey(): string;
  /**
   * One push to one subscription, within `timeoutMs`, through `agent` (the host checked before).
   * Fails with the library's error: its `statusCode` is the push service's answer (404, 410: gone).
   */
  send(target: PushTarget, payload: string, options: { timeoutMs: number; agent: Agent }): Promise<void>;
}

export function createWebPush(config: Pick<Config, 'dataDir' | 'vapid'>): PushSender {
  let keys: VapidKeys | undefined;
  const keysNow = () => (keys ??= vapidKeys(config));
  return {
    publicKey: () => keysNow().publicKey,
    async send(target, payload, { timeoutMs, agent }) {
      const { subject, publicKey, privateKey } = keysNow();
      // web-push makes one request and follows no redirect: a 3xx is a refusal like any other.
      await webpush.sendNotification(target, payload, {
        vapidDetails: { subject, publicKey, privateKey },
        contentEncoding: 'aes128gcm',
        TTL: 24 * 3600,
        timeout: timeoutMs,
        agent,
      });
    },
  };
}
