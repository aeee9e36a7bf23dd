import { AuthSession } from '../../db/entities/AuthSession.js';
import type { AppDeps } from '../../deps.js';
import { deleteUserRows } from '../privacy/index.js';
import { userOwnedEntities } from '../privacy/index.js';

// A visitor with a guest space who signs in to an account they already have keeps what they did in
// the space: its rows move into the account, found from the ORM's metadata like the account
// export (a table added later moves too). What there is one of per user (settings, knowledge
// base, memory settings, writing style) moves only when the account has none yet: the account's
// own wins. What a guest cannot have (connections, subscriptions, sessions) is not moved; the
// guest account is then deleted with whatever is left, and its sessions end on every instance.
const notMoved = new Set(['User', 'AuthSession', 'MicrosoftConnection', 'CalendarSubscription', 'ApiKey', 'PhoneVerification']);

export async function mergeGuestInto(deps: Pick<AppDeps, 'orm' | 'sessions' | 'log'>, guestId: number, userId: number): Promise<void> {
  const direct = userOwnedEntities(deps.orm).filter((entity) => entity.path.length === 1 && !notMoved.has(entity.name));
  await deps.orm.em.fork().transactional(async (em) => {
    for (const entity of direct) {
      const relation = entity.path[0]!;
      if (entity.single && (await em.count(entity.meta.class, { [relation]: userId }))) continue;
      await em.nativeUpdate(entity.meta.class, { [relation]: guestId }, { [relation]: userId });
    }
  });
  const sessionIds = (await deps.orm.em.fork().find(AuthSession, { user: guestId }, { fields: ['id'] })).map((row) => row.id);
  await deleteUserRows(deps.orm, guestId);
  await deps.sessions.end(sessionIds);
  deps.log.info({ userId }, 'a guest space was merged into the account that signed in');
}
