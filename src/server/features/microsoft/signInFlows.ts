import crypto from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { sealData, unsealData } from 'iron-session';
import { serviceKeyOfName, serviceNameOfKey, microsoftServiceKeys, type MicrosoftServiceKey, type MicrosoftServiceName } from '../../../shared/schemas/microsoft.js';
import { microsoftTexts } from '../../../shared/texts/microsoft.js';
import type { Identity } from '../../providers/microsoft/identity.js';
import type { AuthedContext } from '../../trpc/context.js';
import { saveConnection } from './connections.js';
import { asPublicError } from './graphErrors.js';
import { recordSecurityEvent, requestEvent } from '../security/index.js';

// Browser sign-in (authorization code with PKCE S256) and device-code sign-in. What a flow must
// remember travels sealed (iron-session's sealData with the session password): the browser's
// state parameter and the client's deviceCodeInfo. Nobody can read or forge them, and any
// instance can open them, so a poll or a callback may land on another server. The browser's state
// is bound to the user and to the session that started the sign-in (a demo visitor has no
// session: the user binding alone then).

const stateTtlSeconds = 10 * 60;

/** u: user id, i: session id (absent without a session), s: service, v: PKCE verifier, r: redirect URI, n: nonce. */
type SealedState = { u: number; i?: string; s: MicrosoftServiceKey; v: string; r: string; n: string };
type SealedDeviceCode = { u: number; s: MicrosoftServiceKey; d: string; e: number };

function requireIdentity(ctx: AuthedContext): Identity {
  const identity = ctx.deps.microsoft.identity;
  if (!identity) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: microsoftTexts.notConfigured });
  return identity;
}

/** PUBLIC_URL, else the address this request came to. */
function redirectUri(ctx: AuthedContext): string {
  const configured = ctx.deps.config.microsoft.publicUrl;
  if (configured) return `${configured}/api/auth/microsoft/callback`;
  const forwardedProto = ctx.deps.config.trustProxy ? String(ctx.headers['x-forwarded-proto'] ?? '').split(',')[0]?.trim() : '';
  const proto = forwardedProto === 'https' ? 'https' : 'http';
  const host = String(ctx.headers.host ?? `${ctx.deps.config.host}:${ctx.deps.config.port}`);
  return `${proto}://${host}/api/auth/microsoft/callback`;
}

export async function startBrowserSignIn(ctx: AuthedContext, input: { service: MicrosoftServiceName }) {
  const identity = requireIdentity(ctx);
  const verifier = crypto.randomBytes(32).toString('base64url');
  const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
  const redirect = redirectUri(ctx);
  const state = await sealData(
    {
      u: ctx.user.id,
      ...(ctx.session.id ? { i: ctx.session.id } : {}),
      s: serviceKeyOfName(input.service),
      v: verifier,
      r: redirect,
      n: crypto.randomBytes(8).toString('base64url'),
    } satisfies SealedState,
    { password: ctx.deps.sessionPassword, ttl: stateTtlSeconds },
  );
  try {
    return { authUrl: await identity.authCodeUrl({ redirectUri: redirect, state, codeChallenge: challenge, service: serviceKeyOfName(input.service) }) };
  } catch (error) {
    throw asPublicError(error, microsoftTexts.signInFailed);
  }
}

/**
 * The redirect back from Microsoft. The tokens go to the user who started the flow, and only when
 * the same user's session brings the callback back: a replayed callback in another session connects
 * nothing. Answers where the popup should land.
 */
export async function finishBrowserSignIn(ctx: AuthedContext, input: { state?: string; code?: string; error?: string }): Promise<{ location: string }> {
  const failed = (reason: string) => ({ location: `/integrations#integration-error=${encodeURIComponent(reason)}` });
  if (input.error) return failed(microsoftTexts.declined);
  const identity = ctx.deps.microsoft.identity;
  if (!identity) return failed(microsoftTexts.notConfigured);
  if (!input.state || !input.code) return failed(microsoftTexts.badState);
  const state = (await unsealData<Partial<SealedState>>(input.state, { password: ctx.deps.sessionPassword, ttl: stateTtlSeconds }).catch(() => ({}))) as Partial<SealedState>;
  if (typeof state.u !== 'number' || !state.v || !state.r || !state.s || !microsoftServiceKeys.includes(state.s)) return failed(microsoftTexts.badState);
  if (state.u !== ctx.user.id) return failed(microsoftTexts.badState);
  // The same session that started it: another session of the same user connects nothing.
  if ((state.i ?? null) !== (ctx.session.id ?? null)) return failed(microsoftTexts.badState);
  try {
    const tokens = await identity.redeemCode({ code: input.code, codeVerifier: state.v, redirectUri: state.r, service: state.s });
    await saveConnection(ctx.deps, ctx.em, ctx.user.id, state.s, tokens);
    await recordSecurityEvent(ctx.em, requestEvent(ctx, 'microsoft_connected'));
  } catch (error) {
    ctx.deps.log.warn({ err: asPublicError(error, microsoftTexts.signInFailed).message }, 'Microsoft browser sign-in failed');
    return failed(microsoftTexts.signInFailed);
  }
  return { location: `/integrations?connected=${state.s}#integration-success` };
}

/** Device-code sign-in turned off (MICROSOFT_DEVICE_CODE, off by default with a client secret). */
function refuseDeviceCodeWhenOff(ctx: AuthedContext) {
  if (!ctx.deps.config.microsoft.deviceCode) throw new TRPCError({ code: 'FORBIDDEN', message: microsoftTexts.deviceCodeOff });
}

export async function startDeviceCode(ctx: AuthedContext, input: { service: MicrosoftServiceName }) {
  const identity = requireIdentity(ctx);
  refuseDeviceCodeWhenOff(ctx);
  let started;
  try {
    started = await identity.startDeviceCode(serviceKeyOfName(input.service));
  } catch (error) {
    throw asPublicError(error, microsoftTexts.signInFailed);
  }
  const expiresAt = Date.now() + started.expiresIn * 1000;
  const deviceCodeInfo = await sealData(
    { u: ctx.user.id, s: serviceKeyOfName(input.service), d: started.deviceCode, e: expiresAt } satisfies SealedDeviceCode,
    { password: ctx.deps.sessionPassword, ttl: started.expiresIn + 120 },
  );
  return {
    userCode: started.userCode,
    verificationUrl: started.verificationUrl,
    expiresIn: started.expiresIn,
    interval: started.interval,
    message: started.message,
    deviceCodeInfo,
  };
}

export type PollAnswer =
  | { pending: true; message: string; interval?: number }
  | { expired: true; success: false; message: string }
  | { success: true; service: MicrosoftServiceName; userEmail: string | null; message: string }
  | { success: false; error: string; message: string };

export async function pollDeviceCode(ctx: AuthedContext, input: { deviceCodeInfo: string }): Promise<PollAnswer> {
  const identity = requireIdentity(ctx);
  refuseDeviceCodeWhenOff(ctx);
  const info = (await unsealData<Partial<SealedDeviceCode>>(input.deviceCodeInfo, { password: ctx.deps.sessionPassword }).catch(() => ({}))) as Partial<SealedDeviceCode>;
  if (typeof info.u !== 'number' || typeof info.d !== 'string' || typeof info.e !== 'number' || !info.s || !microsoftServiceKeys.includes(info.s)) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: microsoftTexts.badDeviceCodeInfo });
  }
  if (info.u !== ctx.user.id) throw new TRPCError({ code: 'FORBIDDEN', message: microsoftTexts.foreignDeviceCodeInfo });
  if (Date.now() > info.e) return { expired: true, success: false, message: microsoftTexts.expiredBody };
  let poll;
  try {
    poll = await identity.pollDeviceCode(info.d);
  } catch (error) {
    const publicError = asPublicError(error, microsoftTexts.signInFailed);
    return { success: false, error: publicError.message, message: publicError.message };
  }
  if (poll.state === 'pending') return { pending: true, message: microsoftTexts.waitingForSignIn, ...(poll.slowDown ? { interval: 10 } : {}) };
  if (poll.state === 'expired') return { expired: true, success: false, message: microsoftTexts.expiredBody };
  if (poll.state === 'declined') return { success: false, error: microsoftTexts.declined, message: microsoftTexts.declined };
  await saveConnection(ctx.deps, ctx.em, ctx.user.id, info.s, poll.tokens);
  await recordSecurityEvent(ctx.em, requestEvent(ctx, 'microsoft_connected'));
  const service = serviceNameOfKey(info.s);
  return { success: true, service, userEmail: poll.tokens.accountEmail, message: microsoftTexts.connectionActiveBody(service) };
}
