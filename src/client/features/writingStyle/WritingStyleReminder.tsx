import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { writingStyleLimits } from '../../../shared/constants';
import { trpc } from '../../lib/trpc';

// The dialog, its texts and the profile's hooks load only when the reminder shows (they
// were a few KB of every first visit to /app, where it never shows).
const WritingStyleReminderDialog = lazy(() => import('./WritingStyleReminderDialog').then((module) => ({ default: module.WritingStyleReminderDialog })));

// Decided once per browser session, so that moving between chats does not roll the dice again.
const decidedKey = 'writingStyleReminderDecided';

function rollOnce(): boolean {
  try {
    if (sessionStorage.getItem(decidedKey)) return false;
    sessionStorage.setItem(decidedKey, '1');
  } catch {
    // Storage refused (private mode): roll every time, as the spec's client did.
  }
  return Math.random() < writingStyleLimits.reminderChance;
}

/** 'Writing Style Review' (the product spec's screens): about 30% of the time, when Microsoft mail is connected. */
export function WritingStyleReminder() {
  // The profile's own query (useWritingStyle reads the same cache entry) says whether mail is connected.
  const mailConnected = useQuery(trpc.writingStyle.get.queryOptions()).data?.mailConnected ?? false;
  const [shown, setShown] = useState(false);

  useEffect(() => {
    // Never over another dialog: a person in the middle of one (a confirmation, the onboarding)
    // would find it covered, and their next click taken by the reminder. Then it skips this session.
    if (mailConnected && rollOnce() && !document.querySelector('[role="dialog"]')) setShown(true);
  }, [mailConnected]);

  // Once shown, it stays mounted (closed), as the Modal it replaces did.
  return shown ? (
    <Suspense fallback={null}>
      <WritingStyleReminderDialog />
    </Suspense>
  ) : null;
}
