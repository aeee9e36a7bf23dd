import { refuseOutsideWorld } from '../../trpc/init.js';
import type { Profile } from '../../../shared/schemas/profile.js';
import { LockMode } from '@mikro-orm/core';
import { User } from '../../db/entities/User.js';
import { UserSettings } from '../../db/entities/UserSettings.js';
import type { AuthedContext } from '../../trpc/context.js';
import { readProfileSettings, saveUserSettings } from './profileSettings.js';

// Name, job title and company live on the user (the sidebar and the coach read them there);
// email and phone live in the user's settings row. Both change together or not at all.
// A new phone number starts unverified; keeping the same number keeps its verification.
export async function updateProfile(ctx: AuthedContext, input: Profile) {
  // A phone number connects the outside world (the coach calls it): registered accounts only,
  // from their own session. The rest of the profile is anyone's to change.
  if (ctx.session.viaApiKey || ctx.user.isGuest || ctx.user.isDemo) {
    const current = (await readProfileSettings(ctx.em, ctx.user)).profile.phone ?? '';
    if ((input.phone ?? '') !== current) refuseOutsideWorld(ctx, 'phone');
  }
  await ctx.em.transactional(async (em) => {
    const user = await em.findOneOrFail(User, ctx.user.id);
    user.fullName = input.fullName;
    user.jobTitle = input.jobTitle;
    user.company = input.company;
    // A changed number is unverified until its owner proves it again.
    const before = await em.findOne(UserSettings, { user: ctx.user.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const changed = (before?.phone ?? null) !== input.phone;
    await saveUserSettings(em, ctx.user.id, { email: input.email, phone: input.phone, ...(changed ? { phoneVerifiedAt: null } : {}) });
  });
  await ctx.em.refresh(ctx.user);
  return readProfileSettings(ctx.em, ctx.user);
}
