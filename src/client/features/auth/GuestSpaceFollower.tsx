import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { onGuestSpaceStarted } from '../../lib/trpc';

/**
 * Issue 22: when a visitor's first write has made them a private guest space, a sample chat on
 * screen (the shared template's) is replaced by the guest's copy of it.
 */
export function GuestSpaceFollower() {
  const navigate = useNavigate();
  useEffect(
    () =>
      onGuestSpaceStarted((moved) => {
        if (!moved) return;
        void navigate({ to: '/app', search: moved.to ? { chat: moved.to } : { new: true }, replace: true });
      }),
    [navigate],
  );
  return null;
}
