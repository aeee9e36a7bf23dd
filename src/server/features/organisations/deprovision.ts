import type { EntityManager } from '@mikro-orm/core';
import { ApiKey } from '../../db/entities/ApiKey.js';
import { CalendarSubscription } from '../../db/entities/CalendarSubscription.js';
import { MicrosoftConnection } from '../../db/entities/MicrosoftConnection.js';
import { NudgeRun, PushSubscription } from '../../db/entities/Nudge.js';
import { Organisation } from '../../db/entities/Organisation.js';
import { User } from '../../db/entities/User.js';
import type { AppDeps } from '../../deps.js';
import { deleteUserRows } from '../privacy/index.js';

// A person the identity provider deprovisions (active false, or DELETE) loses every way in at once:
// the account is marked inactive first (every request reads the user, and an inactive one signs
// nobody in: currentUser.ts), then their sessions end on every instance (their sockets close with
// them), their API keys go, their queued nudges (calls included) are cancelled, and what reaches
// out for them in the background goes too: the Microsoft 365 connections (their tokens), the
// calendar's change subscription and the browsers' push subscriptions. DELETE then keeps or deletes
// their data as the organisation's retention says.

export const deprovisionedReason = 'The organisation removed this account';

export async function deprovisionUser(deps: Pick<AppDeps, 'sessions' | 'log'>, em: EntityManager, user: User): Promise<void> {
  if (user.active || !user.deprovisionedAt) {
    user.active = false;
    user.deprovisionedAt = new Date();
    await em.flush();
  }
  await endAccess(deps, em, user.id);
}

/** Sessions (and their sockets), API keys, queued nudges and background connections of a deprovisioned user. */
async function endAccess(deps: Pick<AppDeps, 'sessions' | 'log'>, em: EntityManager, userId: number): Promise<void> {
  await em.nativeDelete(ApiKey, { owner: userId });
  await em.nativeDelete(MicrosoftConnection, { user: userId });
  await em.nativeDelete(CalendarSubscription, { user: userId });
  await em.nativeDelete(PushSubscription, { owner: userId });
  const now = new Date();
  const cancelled = await em.nativeUpdate(NudgeRun, { owner: userId, status: 'queued' }, { status: 'skipped', reason: deprovisionedReason, updatedAt: now });
  const sessions = await deps.sessions.endOthers(userId, undefined);
  deps.log.info({ userId, sessions, cancelledNudges: cancelled }, 'member deprovisioned');
}

/**
 * SCIM DELETE: deprovisioned, then with retention 'delete' every row of theirs goes (the account
 * deletion's code); with 'keep' the account stays, inactive, and is no longer a SCIM resource (its
 * userName is free for someone else).
 */
export async function removeUser(deps: Pick<AppDeps, 'sessions' | 'log' | 'orm'>, em: EntityManager, user: User): Promise<void> {
  await deprovisionUser(deps, em, user);
  const organisation = await em.findOneOrFail(Organisation, user.organisationId);
  if (organisation.retention === 'delete') {
    await deleteUserRows(deps.orm, user.id);
    deps.log.info({ userId: user.id }, 'deprovisioned member deleted with their data');
    return;
  }
  await em.nativeUpdate(User, { id: user.id }, { scimUserName: null, scimUserNameKey: null, scimExternalId: null });
}

/** Provisioned as active again: the account signs in again (nothing that was ended comes back). */
export async function reactivateUser(em: EntityManager, user: User): Promise<void> {
  user.active = true;
  user.deprovisionedAt = null;
  await em.flush();
}
