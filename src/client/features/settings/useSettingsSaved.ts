import { useQueryClient } from '@tanstack/react-query';
import type { ProfileSettings } from '../../../shared/schemas/profile';
import { settingsTexts } from '../../../shared/texts';
import { errorMessage } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';

// Every save answers the whole settings: the page's query takes it as is.
export function useSettingsSaved() {
  const queryClient = useQueryClient();
  return {
    saved(settings: ProfileSettings, toast: { title: string; message: string }) {
      queryClient.setQueryData(trpc.profile.get.queryKey(), settings);
      notify.success(toast.title, toast.message);
    },
    failed(error: unknown) {
      notify.error(settingsTexts.saveFailedTitle, errorMessage(error, settingsTexts.saveFailedBody));
    },
  };
}
