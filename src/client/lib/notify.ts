import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';
import { toastDefaults } from '../../shared/constants';
import { swipeToDismiss } from '../components/toastRegion';

// The only way the app shows a toast (architecture rule 17): one visible at a time, 5000 ms, dismissed
// by a swipe right of 50 px (the product spec's constants and limits).
// A message may hold an action (the Memory page's 'Memory deleted' and its Undo).
type Toast = { title: string; message?: ReactNode };

let shown = 0;
function show(color: string, { title, message }: Toast) {
  notifications.clean();
  shown += 1;
  const id = `toast-${shown}`;
  notifications.show({ id, title, message: message ?? '', color, autoClose: toastDefaults.autoCloseMs, withBorder: true, ...swipeToDismiss(id) });
}

export const notify = {
  success: (title: string, message?: ReactNode) => show('teal', { title, message }),
  info: (title: string, message?: string) => show('blue', { title, message }),
  error: (title: string, message?: string) => show('red', { title, message }),
};
