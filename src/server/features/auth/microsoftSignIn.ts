import crypto from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import { parseCookie, stringifySetCookie } from 'cookie';
import { sealData, unsealData } from 'iron-session';
import { limits } from '../../../shared/constants.js';
import type { MicrosoftSignInErrorCode } from '../../../shared/texts/microsoftSignIn.js';
import { User } from '../../db/entities/User.js';
import type { AppDeps } from '../../deps.js';
import { httpContext, isSecureRequest } from '../../http/requestContext.js';
import type { SignedInAccount, ProviderTokens } from '../../providers/microsoft/identity.js';
import type { Context } from '../../trpc/context.js';
import { saveConnection } from '../microsoft/index.js';
import { hasFreeSeat, withSeatCheck } from '../organisations/index.js';
import { recordSecurityEvent, requestEvent } from '../security/index.js';
import { dropGuestSamples } from './guestAccount.js';
import { mergeGuestInto } from './guestMerge.js';
import { appendSetCookie } from './session.js';

// 'Sign in with Microsoft': OpenID Connect with the authorization code and PKCE (S256), through
// MSAL. What the flow must remember (PKCE verifier, nonce, the state's random part, the redirect
// URI, and for linking the user and session that asked) travels in a short-lived cookie sealed
// with the session secret, so the state and nonce are bound to the browser that started the flow:
// a callback brought by another browser (a forged or replayed link) finds no matching cookie and
// signs nobody in. The state starts with `msi.`, which tells this flow apart from the connect
// flow (its state is an iron seal) at the shared callback PUBLIC_URL/api/auth/microsoft/callback.
// The account is named by its tenant id and object id from the ID token, never by its address.

export const signInStatePrefix = 'msi.';
export const signInFlowCookie = 'ms_sign_in';
const flowTtlSeconds = 10 * 60;
const flowCookiePath = '/api/auth/microsoft';

type Mode = 'sign-in' | 'link';
/** m: mode, t: the state's random part, v: PKCE verifier, n: nonce, r: redirect URI, u/i: the linking user and session. */
type Flow = { m: Mode; t: string; v: string; n: string; r: string; u?: number; i?: string };

export function isSignInState(state: unknown): boolean {
  return typeof state === 'string' && state.startsWith(signInStatePrefix);
}

/** PUBLIC_URL, else the address this request came to (as the connect flow does). */
export function callbackUri(deps: Pick<AppDeps, 'config'>, headers: IncomingHttpHeaders): string {
  const configured = deps.config.microsoft.publicUrl;
  if (configured) return `${configured}/api/auth/microsoft/callback`;
  const forwardedProto = deps.config.trustProxy ? String(headers['x-forwarded-proto'] ?? '').split(',')[0]?.trim() : '';
  const proto = forwardedProto === 'https' ? 'https' : 'http';
  const host = String(headers.host ?? `${deps.config.host}:${deps.config.port}`);
  return `${proto}://${host}/api/auth/microsoft/callback`;
}

const failedTo = (mode: Mode, code: MicrosoftSignInErrorCode) => (mode === 'link' ? `/settings?microsoft_error=${code}` : `/login?microsoft_error=${code}`);

function setFlowCookie(res: ServerResponse, value: string, secure: boolean, maxAge: number) {
  appendSetCookie(res, signInFlowCookie, stringifySetCookie({ name: signInFlowCookie, value, httpOnly: true, sameSite: 'lax', secure, path: flowCookiePath, maxAge }));
}

/**
 * GET /api/auth/microsoft/sign-in (anyone) and /link (a signed-in account): sets the flow cookie
 * and answers where the browser goes, the authority's authorize endpoint.
 */
export async function startMicrosoftSignIn(deps: AppDeps, req: IncomingMessage, res: ServerResponse, mode: Mode): Promise<string> {
  const identity = deps.microsoft.identity;
  if (!identity) return failedTo(mode, 'notConfigured');
  let linking: { u: number; i: string } | undefined;
  if (mode === 'link') {
    const ctx = await httpContext(deps, req, res);
    const user = ctx.session.userId && ctx.session.id ? await deps.orm.em.fork().findOne(User, ctx.session.userId) : null;
    // Only a registered account's own browser session links (no guest space, no API key).
    if (!user || user.isGuest || user.isDemo || ctx.session.viaApiKey || !ctx.session.id) return '/login';
    linking = { u: user.id, i: ctx.session.id };
  }
  const verifier = crypto.randomBytes(32).toString('base64url');
  const flow: Flow = {
    m: mode,
    t: crypto.randomBytes(24).toString('base64url'),
    v: verifier,
    n: crypto.randomBytes(24).toString('base64url'),
    r: callbackUri(deps, req.headers),
    ...linking,
  };
  const url = await identity.signInUrl({
    redirectUri: flow.r,
    state: signInStatePrefix + flow.t,
    nonce: flow.n,
    codeChallenge: crypto.createHash('sha256').update(verifier).digest('base64url'),
  });
  setFlowCookie(res, await sealData(flow, { password: deps.sessionPassword, ttl: flowTtlSeconds }), isSecureRequest(req, deps.config.trustProxy), flowTtlSeconds);
  return url;
}

/** The callback of a sign-in or link (its state starts with `msi.`): answers where the browser lands. */
export async function finishMicrosoftSignIn(
  deps: AppDeps,
  req: IncomingMessage & { query: Record<string, unknown> },
  res: ServerResponse,
): Promise<string> {
  const query = (name: string) => (typeof req.query[name] === 'string' ? (req.query[name] as string) : undefined);
  const secure = isSecureRequest(req, deps.config.trustProxy);
  const sealed = parseCookie(req.headers.cookie ?? '')[signInFlowCookie];
  // One use: the cookie goes whatever happens next.
  if (sealed !== undefined) setFlowCookie(res, '', secure, 0);
  const flow = sealed ? ((await unsealData<Partial<Flow>>(sealed, { password: deps.sessionPassword, ttl: flowTtlSeconds }).catch(() => ({}))) as Partial<Flow>) : {};
  const mode: Mode = flow.m === 'link' ? 'link' : 'sign-in';
  const fail = (code: MicrosoftSignInErrorCode) => failedTo(mode, code);
  const state = query('state') ?? '';
  if (!flow.t || !flow.v || !flow.n || !flow.r || !sameText(state, signInStatePrefix + flow.t)) return fail('state');
  if (query('error')) return fail(query('error') === 'access_denied' || query('error') === 'consent_required' ? 'declined' : 'failed');
  const code = query('code');
  if (!code) return fail('state');
  const identity = deps.microsoft.identity;
  if (!identity) return fail('notConfigured');

  let redeemed: { tokens: ProviderTokens; account: SignedInAccount };
  try {
    redeemed = await identity.redeemSignIn({ code, codeVerifier: flow.v, redirectUri: flow.r, nonce: flow.n });
  } catch (error) {
    deps.log.warn({ reason: (error as Error).message }, 'Sign in with Microsoft: the code was not redeemed');
    return fail('failed');
  }
  const { account, tokens } = redeemed;
  const allowed = deps.config.microsoft.allowedTenants;
  if (allowed.length && !allowed.includes(account.tenantId)) {
    deps.log.info({ tenantId: account.tenantId }, 'Sign in with Microsoft: a tenant not on MICROSOFT_ALLOWED_TENANTS was refused');
    return fail('tenant');
  }

  const ctx = await httpContext(deps, req, res);
  const em = deps.orm.em.fork();
  const linked = await em.findOne(User, { entraTenantId: account.tenantId, entraObjectId: account.objectId });

  if (mode === 'link') {
    // The same user and session that asked, still signed in.
    if (!flow.u || ctx.session.userId !== flow.u || ctx.session.id !== flow.i) return fail('state');
    if (linked && linked.id !== flow.u) return fail('linkedElsewhere');
    const user = await em.findOne(User, { id: flow.u, isGuest: false, isDemo: false });
    if (!user) return fail('state');
    em.assign(user, { entraTenantId: account.tenantId, entraObjectId: account.objectId, entraUsername: account.username });
    try {
      await em.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) return fail('linkedElsewhere');
      throw error;
    }
    await connectMailAndCalendar(deps, em, user.id, tokens);
    await recordSecurityEvent(em, requestEvent(ctx, 'microsoft_linked', user.id));
    return '/settings?microsoft_linked=1';
  }

  // A visitor in a guest space keeps it: it becomes the new account, or joins the existing one.
  const current = ctx.session.userId ? await em.findOne(User, ctx.session.userId) : null;
  const guest = current?.isGuest ? current : null;
  // An account the organisation provisioned (SCIM) is this person's on their first sign-in.
  const provisioned = linked ? null : await provisionedAccountOf(em, account);
  const existing = linked ?? provisioned;
  if (existing && !existing.active) return fail('deprovisioned');
  // A new member takes a seat of the organisation (refused before the guest space is touched).
  if (!existing && !(await hasFreeSeat(em, guest?.organisationId ?? 1))) return fail('noSeat');
  // Either way the demo's samples stay behind: the account keeps what the visitor made.
  if (guest) await dropGuestSamples(em, guest);
  let user: User;
  if (existing) {
    if (provisioned) {
      em.assign(provisioned, { entraTenantId: account.tenantId, entraObjectId: account.objectId, entraUsername: account.username });
      try {
        await em.flush();
      } catch (error) {
        if (error instanceof UniqueConstraintViolationException) return fail('linkedElsewhere');
        throw error;
      }
      await recordSecurityEvent(em, requestEvent(ctx, 'microsoft_linked', provisioned.id));
    }
    if (guest) await mergeGuestInto(deps, guest.id, existing.id);
    user = existing;
  } else {
    const created = await createAccount(em, account, guest);
    if (!created) return fail('noSeat');
    user = created;
    await recordSecurityEvent(em, requestEvent(ctx, 'microsoft_linked', user.id));
  }
  await connectMailAndCalendar(deps, em, user.id, tokens);
  await ctx.session.start(user.id);
  await recordSecurityEvent(em, requestEvent(ctx, 'sign_in', user.id));
  return '/app';
}

/**
 * The provisioned account, not yet linked to any Microsoft account, that names this one: by the
 * externalId Entra's provisioning sent (its object id, in the mapping docs/organisations.md
 * recommends), else by the userName (the UPN) or the work email matching the sign-in's username;
 * or one an admin invited by CSV, by its email.
 */
async function provisionedAccountOf(em: EntityManager, account: SignedInAccount): Promise<User | null> {
  const base = { entraObjectId: null, isGuest: false, isDemo: false, scimUserNameKey: { $ne: null } };
  const byObjectId = await em.findOne(User, { ...base, scimExternalId: account.objectId });
  if (byObjectId) return byObjectId;
  const name = account.username?.trim().toLowerCase();
  if (!name) return null;
  // An account an admin's CSV invited is found by its email too.
  const invited = { entraObjectId: null, isGuest: false, isDemo: false, invitedAt: { $ne: null } };
  return (await em.findOne(User, { ...base, scimUserNameKey: name })) ?? (await em.findOne(User, { ...base, email: name })) ?? (await em.findOne(User, { ...invited, email: name }));
}

function sameText(a: string, b: string): boolean {
  const da = crypto.createHash('sha256').update(a).digest();
  const db = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(da, db);
}

/** Microsoft Email and Calendar with the sign-in's tokens (sealed per service, as every connection). */
async function connectMailAndCalendar(deps: Pick<AppDeps, 'microsoft'>, em: EntityManager, userId: number, tokens: ProviderTokens) {
  await saveConnection(deps, em, userId, 'email', tokens);
  await saveConnection(deps, em, userId, 'calendar', tokens);
}

/**
 * A user for an Entra account seen for the first time: the name from the token, the username from
 * preferred_username (made unique when taken), no password. A guest space becomes this account.
 * Null when the organisation's last seat was taken meanwhile.
 */
async function createAccount(em: EntityManager, account: SignedInAccount, guest: User | null): Promise<User | null> {
  const base = usernameFrom(account);
  for (let attempt = 0; attempt < 6; attempt += 1) {
    const suffix = attempt === 0 ? '' : attempt < 5 ? `-${attempt + 1}` : `-${crypto.randomBytes(4).toString('hex')}`;
    const username = base.slice(0, limits.usernameMax - suffix.length) + suffix;
    const usernameKey = username.toLowerCase();
    if (await em.count(User, { usernameKey })) continue;
    const fields = {
      username,
      usernameKey,
      fullName: account.name ?? username,
      entraTenantId: account.tenantId,
      entraObjectId: account.objectId,
      entraUsername: account.username,
      isDemo: false,
      isGuest: false,
      guestOrigin: null,
    };
    try {
      // The seat counted again under the organisation's lock as the account is written.
      const made = await withSeatCheck(em.fork(), guest?.organisationId ?? 1, async (tx, seat) => {
        if (!seat.ok) return null;
        const user = guest ? tx.assign(await tx.findOneOrFail(User, guest.id), fields) : tx.create(User, { ...fields, passwordHash: null, jobTitle: null, company: null });
        await tx.flush();
        return user.id;
      });
      return made === null ? null : em.findOneOrFail(User, made, { refresh: true });
    } catch (error) {
      // Another sign-in took the name (or linked the account) meanwhile.
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
      const linked = await em.findOne(User, { entraTenantId: account.tenantId, entraObjectId: account.objectId });
      if (linked) return linked;
    }
  }
  throw new Error('No free username for the Microsoft account');
}

function usernameFrom(account: SignedInAccount): string {
  const cleaned = (account.username ?? '').replace(/[^A-Za-z0-9._@-]/g, '').slice(0, limits.usernameMax);
  return cleaned.length >= limits.usernameMin ? cleaned : `ms-${account.objectId.replace(/-/g, '').slice(0, 12)}`;
}

/** Settings: what the signed-in account's Microsoft sign-in looks like. */
export async function microsoftLinkStatus(ctx: Context & { em: EntityManager; user: User }) {
  const user = await ctx.em.findOneOrFail(User, ctx.user.id, { fields: ['entraObjectId', 'entraUsername', 'passwordHash'] });
  return {
    configured: Boolean(ctx.deps.microsoft.identity),
    linked: Boolean(user.entraObjectId),
    username: user.entraObjectId ? (user.entraUsername ?? null) : null,
    hasPassword: Boolean(user.passwordHash),
    passwordLogin: ctx.deps.config.passwordLogin,
  };
}
