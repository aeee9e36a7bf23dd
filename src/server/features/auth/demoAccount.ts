import { UniqueConstraintViolationException, type MikroORM } from '@mikro-orm/core';
import { authTexts } from '../../../shared/texts/index.js';
import { Chat } from '../../db/entities/Chat.js';
import { Message } from '../../db/entities/Message.js';
import { User } from '../../db/entities/User.js';
import { hashPassword, verifyPassword } from './password.js';
import { demoSampleChats } from './demoSamples.js';

// The demo account and its sample chats exist only while DEMO_MODE is on (issue 14): created at
// start when missing (idempotent, safe for instances starting together), with the password shown
// on /login. With demo mode off they are removed, chats and all: a production database never
// holds them. (Databases migrated before this change had them written by a migration.)
export async function prepareDemoAccount(orm: MikroORM, demoMode: boolean): Promise<void> {
  const em = orm.em.fork();
  if (!demoMode) {
    await em.nativeDelete(User, { isDemo: true });
    return;
  }
  const { username, password } = authTexts.demoCredentials;
  const existing = await em.findOne(User, { isDemo: true });
  if (existing) {
    if (!(await verifyPassword(password, existing.passwordHash))) {
      existing.passwordHash = await hashPassword(password);
      await em.flush();
    }
    return;
  }
  try {
    await em.transactional(async (tx) => {
      const demo = tx.create(User, {
        username,
        usernameKey: username,
        passwordHash: await hashPassword(password),
        fullName: 'Alex Morgan',
        jobTitle: 'Engineering Manager',
        company: 'Northwind Labs',
        isDemo: true,
      });
      // Oldest first, so that on a fresh database the samples are chats 1 to 4 (SPEC section 2).
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
}
