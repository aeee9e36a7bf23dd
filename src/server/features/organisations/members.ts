import { TRPCError } from '@trpc/server';
import { inactiveAfterDays, type MemberState, type SetMemberRoleInput } from '../../../shared/schemas/organisations.js';
import { organisationTexts } from '../../../shared/texts/index.js';
import { User } from '../../db/entities/User.js';
import type { AuthedContext } from '../../trpc/context.js';
import { memberTarget, type AdminContext } from './audit.js';
import { isOrgAdmin, namedByOperator } from './roles.js';

// The organisation's members as an admin sees them: who they are and their state, never what they
// coach on (no chat, memory, goal or any other text of theirs is read here).

export type { MemberState };

const inactiveAfterMs = inactiveAfterDays * 24 * 60 * 60 * 1000;

/**
 * deprovisioned: the organisation removed them; invited: made by a CSV invite or by provisioning
 * and never signed in; inactive: no sign-in or request for 30 days (User.lastSeenAt, kept when
 * sessions end); active otherwise. An account without a lastSeenAt that was neither invited nor
 * provisioned (made before it was recorded) is judged by when it was made.
 */
export function memberState(user: Pick<User, 'active' | 'lastSeenAt' | 'invitedAt' | 'scimUserNameKey' | 'createdAt'>, now = Date.now()): MemberState {
  if (!user.active) return 'deprovisioned';
  if (!user.lastSeenAt && (user.invitedAt || user.scimUserNameKey)) return 'invited';
  const seen = user.lastSeenAt ?? user.createdAt;
  return now - seen.getTime() >= inactiveAfterMs ? 'inactive' : 'active';
}

function memberView(user: User, operatorAdmins: readonly string[], now = Date.now()) {
  return {
    id: user.id,
    username: user.username,
    fullName: user.fullName,
    email: user.email ?? null,
    role: isOrgAdmin(user, operatorAdmins) ? ('admin' as const) : ('member' as const),
    /** Named in ORG_ADMINS: an admin whatever the app says. */
    adminByOperator: namedByOperator(user, operatorAdmins),
    state: memberState(user, now),
    provisioned: Boolean(user.scimUserName),
    createdAt: user.createdAt.toISOString(),
    deprovisionedAt: user.deprovisionedAt?.toISOString() ?? null,
  };
}
export type MemberView = ReturnType<typeof memberView>;

export async function listMembers(ctx: AuthedContext): Promise<{ members: MemberView[] }> {
  const users = await ctx.em.find(User, { organisationId: ctx.user.organisationId, isGuest: false, isDemo: false }, { orderBy: { id: 'asc' }, limit: 5000 });
  const now = Date.now();
  return { members: users.map((user) => memberView(user, ctx.deps.config.organisation.admins, now)) };
}

/** An admin names another admin, or makes one a member again (one named in ORG_ADMINS stays an admin). */
export async function setMemberRole(ctx: AdminContext, input: SetMemberRoleInput): Promise<MemberView> {
  const user = await ctx.em.findOne(User, { id: input.userId, organisationId: ctx.user.organisationId, isGuest: false, isDemo: false });
  if (!user) throw new TRPCError({ code: 'NOT_FOUND', message: organisationTexts.memberNotFound });
  const before = user.orgRole;
  user.orgRole = input.role;
  await ctx.em.flush();
  ctx.audit.note({ target: memberTarget(user), changes: { role: input.role, roleBefore: before } });
  ctx.deps.log.info({ userId: user.id, role: input.role, by: ctx.user.id }, 'organisation role changed');
  return memberView(user, ctx.deps.config.organisation.admins);
}
