import { useMutation, useQueryClient } from '@tanstack/react-query';
import { trpc } from '../../lib/trpc';
import { useSession } from '../auth/useSession';
import { useLocalKnowledgeBase } from '../knowledgeBase/useLocalKnowledgeBase';

// The onboarding's role answers are the user's own: when the job title or company differ from
// the profile, the profile is updated (the rest of the profile is kept as it is); and all four
// answers (role, company, manager, direct reports) fill the knowledge base.
export function useSaveRoleToProfile() {
  const queryClient = useQueryClient();
  const { user } = useSession();
  const update = useMutation(trpc.profile.updateProfile.mutationOptions());
  const applyToKnowledgeBase = useMutation(trpc.knowledgeBase.applyOnboarding.mutationOptions());
  const { keep } = useLocalKnowledgeBase(user?.id ?? 0);

  async function saveRole(role: { jobTitle: string; company: string; manager: string; directReports: number | '' }): Promise<void> {
    if (!user) return;
    const jobTitle = role.jobTitle.trim();
    const company = role.company.trim();
    if (jobTitle !== (user.jobTitle ?? '') || company !== (user.company ?? '')) {
      const current = await queryClient.fetchQuery({ ...trpc.profile.get.queryOptions(), staleTime: 0 });
      const saved = await update.mutateAsync({ ...current.profile, jobTitle, company });
      queryClient.setQueryData(trpc.profile.get.queryKey(), saved);
      await queryClient.invalidateQueries(trpc.auth.session.queryFilter());
    }
    const kb = await applyToKnowledgeBase.mutateAsync({
      jobTitle,
      company,
      manager: role.manager.trim(),
      directReports: role.directReports === '' ? null : role.directReports,
    });
    queryClient.setQueryData(trpc.knowledgeBase.get.queryKey(), kb);
    keep(kb);
  }

  return saveRole;
}
