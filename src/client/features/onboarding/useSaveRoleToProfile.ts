import { useMutation, useQueryClient } from '@tanstack/react-query';
import { trpc } from '../../lib/trpc';
import { useSession } from '../auth/useSession';

// The onboarding's job title and company are the user's own: when they differ from the
// profile, the profile is updated (the rest of the profile is kept as it is).
export function useSaveRoleToProfile() {
  const queryClient = useQueryClient();
  const { user } = useSession();
  const update = useMutation(trpc.profile.updateProfile.mutationOptions());

  async function saveRole(role: { jobTitle: string; company: string }): Promise<void> {
    const jobTitle = role.jobTitle.trim();
    const company = role.company.trim();
    if (!user || (jobTitle === (user.jobTitle ?? '') && company === (user.company ?? ''))) return;
    const current = await queryClient.fetchQuery({ ...trpc.profile.get.queryOptions(), staleTime: 0 });
    const saved = await update.mutateAsync({ ...current.profile, jobTitle, company });
    queryClient.setQueryData(trpc.profile.get.queryKey(), saved);
    await queryClient.invalidateQueries(trpc.auth.session.queryFilter());
  }

  return saveRole;
}
