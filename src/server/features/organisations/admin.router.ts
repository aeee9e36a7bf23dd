import { scimTokenIdSchema, setMemberRoleSchema, updateOrganisationSchema } from '../../../shared/schemas/organisations.js';
import { analyticsQuerySchema } from '../../../shared/schemas/analytics.js';
import { inviteMembersSchema, listAdminAuditSchema } from '../../../shared/schemas/organisations.js';
import { listAdminAudit } from './audit.js';
import { inviteMembers } from './invites.js';
import { adminProcedure, router } from '../../trpc/init.js';
import { organisationAnalytics } from './analytics.js';
import { createProgram, endProgram, listPrograms } from './programs.js';
import { createProgramSchema, programIdSchema } from '../../../shared/schemas/programs.js';
import { listMembers, setMemberRole } from './members.js';
import { getOrganisation, updateOrganisation } from './organisation.js';
import { createScimToken, listScimTokens, revokeScimToken } from './scimTokens.js';

// The organisation's administration: every procedure here is an adminProcedure (an admin's own
// session; 403 for a member and for any API key, 401 without a session). A test calls each one of
// this router as a member, with a key and without a session.
export const adminRouter = router({
  organisation: adminProcedure.query(({ ctx }) => getOrganisation(ctx)),
  updateOrganisation: adminProcedure.meta({ audit: 'organisation.update' }).input(updateOrganisationSchema).mutation(({ ctx, input }) => updateOrganisation(ctx, input)),
  members: adminProcedure.query(({ ctx }) => listMembers(ctx)),
  setMemberRole: adminProcedure.meta({ audit: 'member.role' }).input(setMemberRoleSchema).mutation(({ ctx, input }) => setMemberRole(ctx, input)),
  scimTokens: adminProcedure.query(({ ctx }) => listScimTokens(ctx)),
  createScimToken: adminProcedure.meta({ audit: 'scimToken.create' }).mutation(({ ctx }) => createScimToken(ctx)),
  analytics: adminProcedure.input(analyticsQuerySchema.optional()).query(({ ctx, input }) => organisationAnalytics(ctx, input ?? {})),
  programs: adminProcedure.query(({ ctx }) => listPrograms(ctx)),
  createProgram: adminProcedure.meta({ audit: 'program.create' }).input(createProgramSchema).mutation(({ ctx, input }) => createProgram(ctx, input)),
  endProgram: adminProcedure.meta({ audit: 'program.end' }).input(programIdSchema).mutation(({ ctx, input }) => endProgram(ctx, input)),
  revokeScimToken: adminProcedure.meta({ audit: 'scimToken.revoke' }).input(scimTokenIdSchema).mutation(({ ctx, input }) => revokeScimToken(ctx, input)),
  // Every mutation declares its audit action (.meta({ audit })): the adminProcedure records it.
  audit: adminProcedure.input(listAdminAuditSchema).query(({ ctx, input }) => listAdminAudit(ctx, input)),
  inviteMembers: adminProcedure.meta({ audit: 'members.invite' }).input(inviteMembersSchema).mutation(({ ctx, input }) => inviteMembers(ctx, input)),
});
