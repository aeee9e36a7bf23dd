import type { EntityManager } from '@mikro-orm/core';
import { MicrosoftConnection, type MicrosoftService } from '../../db/entities/MicrosoftConnection.js';
import { InteractionRequiredError, type ProviderTokens } from '../../providers/microsoft/identity.js';
import type { AppDeps } from '../../deps.js';

// A user's Microsoft connections: stored sealed, opened only to call Microsoft, refreshed a few
// minutes before they expire. Every read goes through the user's id.

const refreshAhead = 5 * 60_000;

export class ReconnectNeededError extends Error {
  readonly status = 401;
}

export async function saveConnection(
  deps: Pick<AppDeps, 'microsoft'>,
  em: EntityManager,
  userId: number,
  service: MicrosoftService,
  tokens: ProviderTokens,
): Promise<MicrosoftConnection> {
  const { cipher } = deps.microsoft;
  let row = await em.findOne(MicrosoftConnection, { user: userId, service });
  const values = {
    accountEmail: tokens.accountEmail?.slice(0, 320) ?? null,
    keyId: cipher.keyId,
    accessTokenSealed: cipher.seal(tokens.accessToken),
    refreshTokenSealed: tokens.refreshToken ? cipher.seal(tokens.refreshToken) : null,
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

/** A working access token for the connection, refreshed first when it is about to expire. */
export async function accessTokenFor(deps: Pick<AppDeps, 'microsoft' | 'log'>, em: EntityManager, connection: MicrosoftConnection): Promise<string> {
  const { cipher, identity } = deps.microsoft;
  if (connection.needsReconnect) throw new ReconnectNeededError('Reconnect Microsoft on the Integrations page');
  const expiring = connection.expiresAt && connection.expiresAt.getTime() - Date.now() < refreshAhead;
  if (!expiring || !connection.refreshTokenSealed || !identity) return cipher.open(connection.accessTokenSealed);
  try {
    const tokens = await identity.refresh(cipher.open(connection.refreshTokenSealed));
    em.assign(connection, {
      keyId: cipher.keyId,
      accessTokenSealed: cipher.seal(tokens.accessToken),
      refreshTokenSealed: tokens.refreshToken ? cipher.seal(tokens.refreshToken) : connection.refreshTokenSealed,
      expiresAt: tokens.expiresAt,
    });
    await em.flush();
    return tokens.accessToken;
  } catch (error) {
    if (error instanceof InteractionRequiredError) {
      connection.needsReconnect = true;
      await em.flush();
      deps.log.info({ connectionId: connection.id }, 'a Microsoft connection needs the user to sign in again');
      throw new ReconnectNeededError('Reconnect Microsoft on the Integrations page');
    }
    throw error;
  }
}
