import crypto from 'node:crypto';
import { nudgeKinds, type NudgeKind } from '../../../shared/schemas/nudges.js';

// The one-click unsubscribe link of a nudge email: `{userId}.{kind}.{signature}`, signed with a
// key derived from the session secret, so it works without signing in and cannot be forged for
// another user or another nudge.

const keyOf = (secret: string) => crypto.createHmac('sha256', secret).update('nudge-unsubscribe').digest();

function signature(secret: string, userId: number, kind: NudgeKind) {
  return crypto.createHmac('sha256', keyOf(secret)).update(`${userId}.${kind}`).digest('base64url');
}

export function unsubscribeToken(secret: string, userId: number, kind: NudgeKind): string {
  return `${userId}.${kind}.${signature(secret, userId, kind)}`;
}

export function readUnsubscribeToken(secret: string, token: string): { userId: number; kind: NudgeKind } | null {
  const match = /^(\d{1,10})\.([a-z_]{1,20})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const userId = Number(match[1]);
  const kind = match[2] as NudgeKind;
  if (!nudgeKinds.includes(kind)) return null;
  const expected = Buffer.from(signature(secret, userId, kind));
  const given = Buffer.from(match[3]!);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given) ? { userId, kind } : null;
}
