import { LockMode, type EntityManager } from '@mikro-orm/core';
import { User } from './entities/User.js';

/**
 * Inside a transaction: takes the owner's user row for update, so that a count and the insert it
 * allows (10 API keys, 200 goals) are one step per owner. Parallel creates wait their turn and
 * each counts what the one before inserted (20 parallel creates once made 20 keys).
 */
export async function lockOwner(tx: EntityManager, userId: number): Promise<void> {
  await tx.findOneOrFail(User, userId, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
}
