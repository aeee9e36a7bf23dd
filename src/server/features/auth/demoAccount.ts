import type { MikroORM } from '@mikro-orm/core';
import { authTexts } from '../../../shared/texts/index.js';
import { User } from '../../db/entities/User.js';
import { demoUserId } from './currentUser.js';
import { hashPassword, verifyPassword } from './password.js';

// In demo mode the demo account (seeded by the first migration) gets the password shown on
// /login. Outside demo mode nobody can sign in to it (login.ts refuses it).
export async function prepareDemoAccount(orm: MikroORM, demoMode: boolean): Promise<void> {
  if (!demoMode) return;
  const em = orm.em.fork();
  const demo = await em.findOne(User, { id: demoUserId, isDemo: true });
  if (!demo) return;
  const { password } = authTexts.demoCredentials;
  if (!(await verifyPassword(password, demo.passwordHash))) {
    demo.passwordHash = await hashPassword(password);
    await em.flush();
  }
}
