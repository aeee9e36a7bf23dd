import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { authTexts } from '../../../shared/texts/index.js';
import { Chat } from '../../db/entities/Chat.js';
import { Message } from '../../db/entities/Message.js';
import { User } from '../../db/entities/User.js';
import type { AppDeps } from '../../deps.js';
import { demoSampleChats } from './demoSamples.js';
import { refreshDemoSamples } from './demoWeek.js';

// The demo account and its sample chats exist only while DEMO_MODE is on: created at
// start when missing (idempotent, safe for instances starting together), with the password shown
// on /login. With demo mode off they are removed, chats and all: a production database never
// holds them. (Databases migrated before this change had them written by a migration.)
// The demo password is public (shown on /login, authTexts.demoCredentials), so its hash is too:
// made once with hashPassword (today's parameters) and kept here, it spares every start a scrypt
// (N=2^17: about half a second, on the path to /readyz, bench/results/start.md). The
// account gets exactly this hash when created, and again whenever its stored hash is any other
// (its password was changed, or it was hashed before this constant): the same outcome as
// checking the password and hashing it anew, without either. demoAccount.test.ts checks that it
// verifies against the demo password with today's parameters.
export const demoPasswordHash =
  'scrypt$131072$8$1$lmSM5LeBHsYtLFiC8KwoBg==$Rujzsr5oUK8FX8SZBpO6eR1d5NR2QW+ZK98ut6v6q3WkwrZJihQqMJTyYCF99AfcqJxlZRIge8UBT99kQCHdWg==';

export async function prepareDemoAccount(deps: Pick<AppDeps, 'config' | 'orm' | 'log' | 'sessions' | 'microsoft'>, demoMode: boolean): Promise<void> {
  const em = deps.orm.em.fork();
  if (!demoMode) {
    await em.nativeDelete(User, { isDemo: true });
    return;
  }
  const { username } = authTexts.demoCredentials;
  const existing = await em.findOne(User, { isDemo: true });
  if (existing) {
    if (existing.passwordHash !== demoPasswordHash) {
      existing.passwordHash = demoPasswordHash;
      await em.flush();
    }
    await refreshDemoSamples(deps);
    return;
  }
  try {
    await em.transactional(async (tx) => {
      const demo = tx.create(User, {
        username,
        usernameKey: username,
        passwordHash: demoPasswordHash,
        fullName: 'Alex Morgan',
        jobTitle: 'Engineering Manager',
        company: 'Northwind Labs',
        isDemo: true,
      });
      // Oldest first, so that on a fresh database the samples are chats 1 to 4 (the product spec's screens).
      for (const sample of demoSampleChats) {
        const at = new Date(Date.now() - sample.daysAgo * 86_400_000);
        const chat = tx.create(Chat, { owner: demo, title: sample.title, isPinned: false, createdAt: at, updatedAt: at });
        await tx.flush();
        tx.create(Message, { chat, role: 'user', content: sample.question, status: 'complete', createdAt: at });
        tx.create(Message, { chat, role: 'assistant', content: sample.answer, status: 'complete', createdAt: new Date(at.getTime() + 5000) });
        await tx.flush();
      }
    });
  } catch (error) {
    // Another instance created it at the same moment.
    if (!(error instanceof UniqueConstraintViolationException)) throw error;
  }
  await refreshDemoSamples(deps);
}
