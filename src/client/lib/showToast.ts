import { notifications } from '@mantine/notifications';
import type { PointerEvent } from 'react';
import { toastDefaults } from '../../shared/constants';

// What lib/notify.ts loads with the first toast: Mantine's notifications store, and the toast
// gesture of the product spec's constants and limits, a swipe right of 50 px that dismisses a toast.
// (Mantine's own drag dismisses either way at 35% of the width, so ToastStack turns it off.)

let shown = 0;
/** One toast visible at a time, 5000 ms (the product spec's constants and limits). */
export function showToast(color: string, { title, message }: { title: string; message?: string }) {
  notifications.clean();
  shown += 1;
  const id = `toast-${shown}`;
  notifications.show({ id, title, message: message ?? '', color, autoClose: toastDefaults.autoCloseMs, withBorder: true, ...swipeToDismiss(id) });
}

type Drag = { pointerId: number; startX: number; startY: number; dx: number; captured: boolean };
const drags = new WeakMap<HTMLElement, Drag>();

/** Pointer handlers for one toast: dragged right, it follows; let go past 50 px, it is dismissed. */
function swipeToDismiss(id: string) {
  const reset = (el: HTMLElement) => {
    drags.delete(el);
    el.style.translate = '';
  };
  return {
    onPointerDown(event: PointerEvent<HTMLElement>) {
      if (event.button !== 0) return;
      drags.set(event.currentTarget, { pointerId: event.pointerId, startX: event.clientX, startY: event.clientY, dx: 0, captured: false });
    },
    onPointerMove(event: PointerEvent<HTMLElement>) {
      const el = event.currentTarget;
      const drag = drags.get(el);
      if (!drag || drag.pointerId !== event.pointerId) return;
      drag.dx = event.clientX - drag.startX;
      // Only a mostly horizontal drag is a swipe; until then a press stays a click (the close button).
      if (!drag.captured && Math.abs(drag.dx) > 5 && Math.abs(drag.dx) > Math.abs(event.clientY - drag.startY)) {
        drag.captured = true;
        el.setPointerCapture(event.pointerId);
      }
      if (drag.captured) el.style.translate = `${Math.max(0, drag.dx)}px 0`;
    },
    onPointerUp(event: PointerEvent<HTMLElement>) {
      const el = event.currentTarget;
      const drag = drags.get(el);
      if (drag?.captured && drag.dx >= toastDefaults.swipeThresholdPx) {
        drags.delete(el);
        notifications.hide(id);
      } else reset(el);
    },
    onPointerCancel(event: PointerEvent<HTMLElement>) {
      reset(event.currentTarget);
    },
  };
}
