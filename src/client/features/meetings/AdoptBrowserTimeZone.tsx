import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { trpc } from '../../lib/trpc';
import { useSession } from '../auth/useSession';
import { browserTimeZone } from './meetingFormat';

/**
 * A new account or guest space starts in the browser's time zone, not UTC: once per page load the
 * browser's zone is offered, and the server keeps it only where no zone was ever chosen. A demo
 * visitor without a space sends nothing (a write would make them a space); their screens date
 * things in the browser's zone already. Mounted once in the app shell.
 */
export function AdoptBrowserTimeZone() {
  const { signedIn, isLoading } = useSession();
  const queryClient = useQueryClient();
  const { mutate } = useMutation(
    trpc.meetings.adoptTimeZone.mutationOptions({
      onSuccess: async (result) => {
        if (!result.adopted) return;
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.meetings.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.nudges.settings.queryKey() }),
        ]);
      },
    }),
  );
  const sent = useRef(false);
  // Whether the page load began signed in. A visitor's first write makes their guest space in the
  // middle of a page load, while that write (a first message, say) is still under way: the zone
  // waits for the next page load instead of racing it.
  const beganSignedIn = useRef<boolean | null>(null);
  if (!isLoading && beganSignedIn.current === null) beganSignedIn.current = signedIn;
  useEffect(() => {
    if (!signedIn || !beganSignedIn.current || sent.current) return;
    const timeZone = browserTimeZone();
    if (!timeZone) return;
    sent.current = true;
    mutate({ timeZone });
  }, [signedIn, mutate]);
  return null;
}
