import fs from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import type { Config } from '../../config.js';

// The VAPID key pair that signs web pushes: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY when set,
// otherwise a pair generated once and kept (mode 0600) in DATA_DIR, so a restart keeps the key
// that browsers subscribed with.

export type VapidKeys = { publicKey: string; privateKey: string; subject: string };

const fileName = 'vapid-keys.json';

export function vapidKeys(config: Pick<Config, 'dataDir' | 'vapid'>): VapidKeys {
  const subject = config.vapid.subject;
  if (config.vapid.publicKey && config.vapid.privateKey) return { publicKey: config.vapid.publicKey, privateKey: config.vapid.privateKey, subject };
  const file = path.join(config.dataDir, fileName);
  try {
    const kept = JSON.parse(fs.readFileSync(file, 'utf8')) as { publicKey?: unknown; privateKey?: unknown };
    if (typeof kept.publicKey === 'string' && typeof kept.privateKey === 'string') return { publicKey: kept.publicKey, privateKey: kept.privateKey, subject };
  } catch {
    // not there yet: generated below
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  const generated = webpush.generateVAPIDKeys();
  fs.writeFileSync(file, JSON.stringify(generated), { mode: 0o600 });
  return { ...generated, subject };
}
