import type { EntityManager } from '@mikro-orm/core';
import { isLegacySealed, type TokenBinding, TokenKeyUnknownError } from './tokenCipher.js';
import { MicrosoftConnection, type MicrosoftService } from '../../db/entities/MicrosoftConnection.js';
import { User } from '../../db/entities/User.js';
import { recordSecurityEvent } from '../security/index.js';
import { InteractionRequiredError, type ProviderTokens } from '../../providers/microsoft/identity.js';
import type { AppDeps } from '../../deps.js';

// A user's Microsoft connections: stored sealed, opened only to call Microsoft, refreshed a few
// minutes before they expire. Every read goes through the user's id.

const refreshAhead = 5 * 60_000;
/** A token another request just stored is used while it has at least this long to live. */
const stillValidFor = 60_000;

export class ReconnectNeededError extends Error {
  readonly status = 401;
}

/**
 * The refresh of a user who signs in with Microsoft answered invalid_grant for that account (it
 * was disabled or deleted in its tenant, or its sign-in revoked): every session of the user has
 * ended. A ReconnectNeededError too, so what only knows that one still stops calling Microsoft.
 */
export class SignedOutByMicrosoftError extends ReconnectNeededError {}

export async function saveConnection(
  deps: Pick<AppDeps, 'microsoft'>,
  em: EntityManager,
  userId: number,
  service: MicrosoftService,
  tokens: ProviderTokens,
): Promise<MicrosoftConnection> {
  const { cipher } = deps.microsoft;
  let row = await em.findOne(MicrosoftConnection, { user: userId, service });
  const binding = { userId, service };
  const values = {
    accountEmail: tokens.accountEmail?.slice(0, 320) ?? null,
    keyId: cipher.keyId,
    accessTokenSealed: cipher.seal(tokens.accessToken, binding),
    refreshTokenSealed: tokens.refreshToken ? cipher.seal(tokens.refreshToken, binding) : null,
    expiresAt: tokens.expiresAt,
    needsReconnect: false,
  };
  if (row) em.assign(row, values);
  else row = em.create(MicrosoftConnection, { user: userId, service, ...values });
  await em.flush();
  return row;
}

export function findConnection(em: EntityManager, userId: number, service: MicrosoftService) {
  return em.findOne(MicrosoftConnection, { user: userId, service });
}

export async function deleteConnection(em: EntityManager, userId: number, service: MicrosoftService): Promise<boolean> {
  return (await em.nativeDelete(MicrosoftConnection, { user: userId, service })) > 0;
}

/**
 * A working access token for the connection, refreshed first when it is about to expire.
 * Refreshing is single-flight per user and service in this process: requests arriving together
 * share one refresh (a second refresh with the same refresh token could be refused, and Entra ID
 * may rotate it). A caller whose row was read before another refresh stored new tokens takes
 * those from the database instead of refreshing again.
 */
/** What opening a user's mailbox or calendar uses: Graph's address, the token cipher and gates, the log and sessions (a refresh). */
export type GraphDeps = Pick<AppDeps, 'config' | 'microsoft' | 'log' | 'sessions'>;

export async function accessTokenFor(deps: Pick<AppDeps, 'microsoft' | 'log' | 'sessions'>, em: EntityManager, connection: MicrosoftConnection): Promise<string> {
  const { cipher, identity, refreshes } = deps.microsoft;
  if (connection.needsReconnect) throw new ReconnectNeededError('Reconnect Microsoft on the Integrations page');
  if (!expiring(connection) || !connection.refreshTokenSealed || !identity) {
    let accessToken: string;
    try {
      accessToken = cipher.open(connection.accessTokenSealed, bindingOf(connection));
    } catch (error) {
      // Sealed with a key this server no longer has (rotated out), or not for this user and
      // service (a value moved between rows fails its authentication): only signing in again helps.
      deps.log.warn({ connectionId: connection.id, unknownKey: error instanceof TokenKeyUnknownError }, 'a sealed Microsoft token does not open');
      connection.needsReconnect = true;
      throw new ReconnectNeededError('Reconnect Microsoft on the Integrations page');
    }
    await sealAgainIfLegacy(deps, em, connection);
    return accessToken;
  }
  const key = `${connection.user.id}:${connection.service}`;
  let flight = refreshes.get(key);
  if (!flight) {
    flight = refreshStored(deps, em.fork(), connection.id, connection.accessTokenSealed).finally(() => {
      if (refreshes.get(key) === flight) refreshes.delete(key);
    });
    refreshes.set(key, flight);
  }
  try {
    return await flight;
  } catch (error) {
    if (error instanceof ReconnectNeededError) connection.needsReconnect = true;
    throw error;
  }
}

/** Whether the connection's account is the Entra account its user signs in with. */
async function signsInWithThisAccount(em: EntityManager, row: MicrosoftConnection): Promise<boolean> {
  const user = await em.findOne(User, row.user.id, { fields: ['entraObjectId', 'entraUsername'] });
  if (!user?.entraObjectId) return false;
  return !row.accountEmail || !user.entraUsername || row.accountEmail.toLowerCase() === user.entraUsername.toLowerCase();
}

function bindingOf(row: MicrosoftConnection): TokenBinding {
  return { userId: row.user.id, service: row.service };
}

/**
 * Tokens sealed before they were bound to their user and service (tokenCipher.ts) are sealed
 * again, bound, the first time they are opened: an upgrade asks nobody to reconnect, and an
 * unbound value is accepted at most until its first use.
 */
async function sealAgainIfLegacy(deps: Pick<AppDeps, 'microsoft'>, em: EntityManager, row: MicrosoftConnection) {
  const { cipher } = deps.microsoft;
  const legacyAccess = isLegacySealed(row.accessTokenSealed);
  const legacyRefresh = Boolean(row.refreshTokenSealed && isLegacySealed(row.refreshTokenSealed));
  if (!legacyAccess && !legacyRefresh) return;
  const binding = bindingOf(row);
  const accessTokenSealed = cipher.seal(cipher.open(row.accessTokenSealed, binding), binding);
  const refreshTokenSealed = row.refreshTokenSealed ? cipher.seal(cipher.open(row.refreshTokenSealed, binding), binding) : null;
  // Only the row as it was read: a refresh that stored newer tokens meanwhile wins.
  await em.nativeUpdate(MicrosoftConnection, { id: row.id, accessTokenSealed: row.accessTokenSealed }, { keyId: cipher.keyId, accessTokenSealed, refreshTokenSealed });
}

function expiring(row: MicrosoftConnection, ahead = refreshAhead): boolean {
  return Boolean(row.expiresAt && row.expiresAt.getTime() - Date.now() < ahead);
}

/** Reads the row afresh; refreshes unless someone else stored newer, still valid tokens since `seen` was read. */
async function refreshStored(deps: Pick<AppDeps, 'microsoft' | 'log' | 'sessions'>, em: EntityManager, connectionId: number, seen: string): Promise<string> {
  const { cipher, identity } = deps.microsoft;
  const row = await em.findOne(MicrosoftConnection, { id: connectionId });
  if (!row || row.needsReconnect) throw new ReconnectNeededError('Reconnect Microsoft on the Integrations page');
  const binding = bindingOf(row);
  if (row.accessTokenSealed !== seen && !expiring(row, stillValidFor)) return cipher.open(row.accessTokenSealed, binding);
  if (!row.refreshTokenSealed || !identity) return cipher.open(row.accessTokenSealed, binding);
  try {
    const refreshToken = cipher.open(row.refreshTokenSealed, binding);
    const tokens = await identity.refresh(refreshToken, row.service);
    em.assign(row, {
      keyId: cipher.keyId,
      accessTokenSealed: cipher.seal(tokens.accessToken, binding),
      refreshTokenSealed: cipher.seal(tokens.refreshToken ?? refreshToken, binding),
      expiresAt: tokens.expiresAt,
    });
    await em.flush();
    return tokens.accessToken;
  } catch (error) {
    if (error instanceof InteractionRequiredError) {
      row.needsReconnect = true;
      await em.flush();
      deps.log.info({ connectionId: row.id }, 'a Microsoft connection needs the user to sign in again');
      if (error.code === 'invalid_grant' && (await signsInWithThisAccount(em, row))) {
        // The account is gone or disabled in its tenant: its way in is closed, so are its sessions.
        const ended = await deps.sessions.endOthers(row.user.id, undefined);
        if (ended > 0) await recordSecurityEvent(em, { userId: row.user.id, kind: 'session_ended' });
        deps.log.info({ userId: row.user.id, ended }, 'Microsoft refused the refresh of a user who signs in with Microsoft: signed out');
        throw new SignedOutByMicrosoftError('Microsoft signed the user out');
      }
      throw new ReconnectNeededError('Reconnect Microsoft on the Integrations page');
    }
    throw error;
  }
}
