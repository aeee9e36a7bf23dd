import { useNotifications } from '@mantine/notifications';
import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { toastDefaults } from '../../shared/constants';
import { toastRegionSelector } from './toastRegion';

// Mantine's toast container (and its transitions) is not part of the entry script: most visits,
// the landing page's included, never show a toast (first-visit JavaScript). `notify`
// (lib/notify.ts) writes to Mantine's notifications store at once; the container shows what the
// store holds when it mounts, and stays mounted afterwards.
//
// It mounts with the first toast, or earlier on screens from which a toast is likely (the auth
// forms, the app: usePreloadToasts) as soon as the user first presses a key or a pointer there,
// so that a toast shown just before a navigation appears at once rather than after the next
// page's scripts, without making the container part of the screen's first load.
const ToastStack = lazy(() => import('./ToastStack'));

let requested = false;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

function request() {
  if (requested) return;
  requested = true;
  for (const listener of listeners) listener();
}

/** Mounts the toast container at the first key or pointer press after the calling screen mounted. */
export function usePreloadToasts() {
  useEffect(() => {
    if (requested) return;
    const events = ['pointerdown', 'keydown'] as const;
    const onInput = () => {
      for (const name of events) window.removeEventListener(name, onInput, true);
      request();
    };
    for (const name of events) window.addEventListener(name, onInput, true);
    return () => {
      for (const name of events) window.removeEventListener(name, onInput, true);
    };
  }, []);
}

// F8 (the product spec's constants and limits) moves focus to the toast region, mounting it first when needed.
function useToastHotkey() {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== toastDefaults.hotkey || event.altKey || event.ctrlKey || event.metaKey) return;
      event.preventDefault();
      request();
      const started = performance.now();
      const focusRegion = () => {
        const region = document.querySelector<HTMLElement>(toastRegionSelector);
        if (region) region.focus({ preventScroll: true });
        else if (performance.now() - started < 5000) requestAnimationFrame(focusRegion);
      };
      focusRegion();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}

export function Toasts() {
  useToastHotkey();
  const { notifications, queue } = useNotifications();
  const preloaded = useSyncExternalStore(
    subscribe,
    () => requested,
    () => false,
  );
  const [needed, setNeeded] = useState(false);
  if (!needed && (preloaded || notifications.length + queue.length > 0)) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <ToastStack limit={toastDefaults.limit} autoClose={toastDefaults.autoCloseMs} />
    </Suspense>
  );
}
