import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AppDeps } from '../../deps.js';
import { isSignedByTwilio } from '../../providers/telephony/twilioCalls.js';
import { relayPath, telephonySettingsOf } from './telephonyProvider.js';

// The relay URL a call's TwiML names, and the check of a relay handshake against it: the call
// webhook (phoneCall.ts) makes the URL, the upgrade route and the relay (conversationRelay.ts) check it.

/** wss:// for an https PUBLIC_URL (Twilio requires it), ws:// for http (tests). */
export function relayUrlOf(publicUrl: string): string {
  return `${publicUrl.replace(/^http/, 'ws')}${relayPath}`;
}

/** How long the relay URL of a call's TwiML may be used: the relay connects seconds after the TwiML is read. */
export const relayGrantSeconds = 120;

function relayGrantMac(deps: Pick<AppDeps, 'sessionPassword'>, callId: number, expires: number): string {
  return crypto.createHmac('sha256', deps.sessionPassword).update(`relay-grant\0${callId}\0${expires}`).digest('hex');
}

/**
 * The relay URL a call's TwiML names: bound to the call (its id) and valid for relayGrantSeconds
 * from the call's first webhook (its state's creation), under the server's secret. Twilio signs
 * the handshake over this exact URL, so a captured signature is good for that call only, and only
 * for a short while; a replayed webhook gets the same URL, not a fresh window.
 */
export function boundRelayUrl(deps: Pick<AppDeps, 'sessionPassword'>, publicUrl: string, call: { id: number; createdAt: Date }): string {
  const expires = Math.floor(call.createdAt.getTime() / 1000) + relayGrantSeconds;
  return `${relayUrlOf(publicUrl)}?call=${call.id}&exp=${expires}&grant=${relayGrantMac(deps, call.id, expires)}`;
}

/**
 * The call a relay handshake is for, or null when it must be refused: Twilio signs the handshake
 * like a webhook (HMAC-SHA1 over the exact relay URL of the TwiML, its query included), and that URL
 * must be one this server made for the call (boundRelayUrl), not expired.
 */
export function signedRelayHandshakeCall(deps: Pick<AppDeps, 'sessionPassword' | 'config'>, req: IncomingMessage): number | null {
  const settings = telephonySettingsOf(deps);
  if (!settings) return null;
  const url = new URL(req.url ?? '/', 'http://relay');
  const callText = url.searchParams.get('call') ?? '';
  const expText = url.searchParams.get('exp') ?? '';
  const grant = url.searchParams.get('grant') ?? '';
  if (!/^\d{1,12}$/.test(callText) || !/^\d{1,12}$/.test(expText) || !/^[0-9a-f]{64}$/.test(grant)) return null;
  const callId = Number(callText);
  const expires = Number(expText);
  const now = Math.floor(Date.now() / 1000);
  if (expires < now || expires > now + relayGrantSeconds) return null;
  const expected = Buffer.from(relayGrantMac(deps, callId, expires), 'hex');
  if (!crypto.timingSafeEqual(expected, Buffer.from(grant, 'hex'))) return null;
  const header = req.headers['x-twilio-signature'];
  const signature = Array.isArray(header) ? header[0] : header;
  const signedUrl = `${relayUrlOf(settings.publicUrl)}?call=${callText}&exp=${expText}&grant=${grant}`;
  return isSignedByTwilio(settings.authToken, signature, signedUrl, {}) ? callId : null;
}

