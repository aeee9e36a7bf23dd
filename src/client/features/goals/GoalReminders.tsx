import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { goalShellTexts } from '../../../shared/texts';
import { notify } from '../../lib/notify';
import { trpc } from '../../lib/trpc';

/**
 * Check-in reminders that came due while the user was away: on the next visit, one toast for the
 * newest, and every one of them marked seen so none shows twice. Mounted once in the app shell.
 */
export function GoalReminders() {
  const reminders = useQuery(trpc.goals.reminders.queryOptions(undefined, { retry: false }));
  const markSeen = useMutation(trpc.goals.markRemindersSeen.mutationOptions());
  const shown = useRef(new Set<number>());
  const { mutate } = markSeen;

  useEffect(() => {
    const fresh = (reminders.data ?? []).filter((r) => !shown.current.has(r.id));
    if (fresh.length === 0) return;
    for (const r of fresh) shown.current.add(r.id);
    // The list comes oldest first.
    const newest = fresh[fresh.length - 1]!;
    notify.info(goalShellTexts.reminderTitle, goalShellTexts.reminderBody(newest.goalTitle));
    mutate({ ids: fresh.map((r) => r.id) });
  }, [reminders.data, mutate]);

  return null;
}
