import { useMutation, useQueryClient } from '@tanstack/react-query';
import { nudgesTexts } from '../../../shared/texts';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';

/**
 * Run now (the weekly review), as the history page and Settings offer it: for a registered
 * account and for a visitor alike (a visitor's run is written in the app only).
 */
export function useRunNow(options: { toastStarted: boolean }) {
  const queryClient = useQueryClient();
  const run = useMutation(trpc.nudges.run.mutationOptions());
  const runNow = async () => {
    try {
      await run.mutateAsync({ kind: 'weekly_review' });
      if (options.toastStarted) notify.success(nudgesTexts.runNow, nudgesTexts.runStarted);
      await queryClient.invalidateQueries({ queryKey: trpc.nudges.runs.queryKey() });
      await queryClient.invalidateQueries({ queryKey: trpc.chats.list.queryKey() });
    } catch (error) {
      notify.error(nudgesTexts.runNow, errorMessage(error, nudgesTexts.runNow));
    }
  };
  return { runNow, pending: run.isPending };
}
