import { toastDefaults } from '../../shared/constants';

// The toast region of the product spec's constants and limits: the region F8 focuses, and the signal
// that mounts Mantine's toast container (Toasts.tsx) when a toast is on its way.

export const toastRegionLabel = `Notifications (${toastDefaults.hotkey})`;
// The one element around Mantine's toast containers (ToastStack).
export const toastRegionSelector = '[data-toast-region]';

// Neither Mantine's notifications store nor the container is part of a first view: most visits
// never show a toast (issue 39: /app's first visit, and the landing page's). `notify` asks for the
// container here and hands the toast to the store once lib/showToast.ts has loaded; the container
// shows what the store holds when it mounts.
let requested = false;
const listeners = new Set<() => void>();

export const toastContainer = {
  requested: () => requested,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  /** Mounts the container (Toasts.tsx), once. */
  request() {
    if (requested) return;
    requested = true;
    for (const listener of listeners) listener();
  },
};
