import { TRPCError } from '@trpc/server';
import type { SetMemberRoleInput } from '../../../shared/schemas/organisations.js';
import { organisationTexts } from '../../../shared/texts/index.js';
import { User } from '../../db/entities/User.js';
import type { AuthedContext } from '../../trpc/context.js';
import { isOrgAdmin, namedByOperator } from './roles.js';

// The organisation's members as an admin sees them: who they are and their state, never what they
// coach on (no chat, memory, goal or any other text of theirs is read here).

export type MemberState = 'active' | 'deprovisioned';

function memberView(user: User, operatorAdmins: readonly string[]) {
  return {
    id: user.id,
    username: user.username,
    fullName: user.fullName,
    email: user.email ?? null,
    role: isOrgAdmin(user, operatorAdmins) ? ('admin' as const) : ('member' as const),
    /** Named in ORG_ADMINS: an admin whatever the app says. */
    adminByOperator: namedByOperator(user, operatorAdmins),
    state: (user.active ? 'active' : 'deprovisioned') as MemberState,
    provisioned: Boolean(user.scimUserName),
    createdAt: user.createdAt.toISOString(),
    deprovisionedAt: user.deprovisionedAt?.toISOString() ?? null,
  };
}
export type MemberView = ReturnType<typeof memberView>;

export async function listMembers(ctx: AuthedContext): Promise<{ members: MemberView[] }> {
  const users = await ctx.em.find(User, { organisationId: ctx.user.organisationId, isGuest: false, isDemo: false }, { orderBy: { id: 'asc' }, limit: 5000 });
  return { members: users.map((user) => memberView(user, ctx.deps.config.organisation.admins)) };
}

/** An admin names another admin, or makes one a member again (one named in ORG_ADMINS stays an admin). */
export async function setMemberRole(ctx: AuthedContext, input: SetMemberRoleInput): Promise<MemberView> {
  const user = await ctx.em.findOne(User, { id: input.userId, organisationId: ctx.user.organisationId, isGuest: false, isDemo: false });
  if (!user) throw new TRPCError({ code: 'NOT_FOUND', message: organisationTexts.memberNotFound });
  user.orgRole = input.role;
  await ctx.em.flush();
  ctx.deps.log.info({ userId: user.id, role: input.role, by: ctx.user.id }, 'organisation role changed');
  return memberView(user, ctx.deps.config.organisation.admins);
}
