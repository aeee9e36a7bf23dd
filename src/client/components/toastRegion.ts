import { notifications } from '@mantine/notifications';
import type { PointerEvent } from 'react';
import { toastDefaults } from '../../shared/constants';

// The toast gestures of the product spec's constants and limits, for Mantine's notifications: the region F8 focuses, and a
// swipe right of 50 px that dismisses a toast. (Mantine's own drag dismisses either way at 35% of
// the width, so ToastStack turns it off.)

export const toastRegionLabel = `Notifications (${toastDefaults.hotkey})`;
// The one element around Mantine's toast containers (ToastStack).
export const toastRegionSelector = '[data-toast-region]';

type Drag = { pointerId: number; startX: number; startY: number; dx: number; captured: boolean };
const drags = new WeakMap<HTMLElement, Drag>();

/** Pointer handlers for one toast: dragged right, it follows; let go past 50 px, it is dismissed. */
export function swipeToDismiss(id: string) {
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
