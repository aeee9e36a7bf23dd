import { notifications } from '@mantine/notifications';
import { toastDefaults } from '../../shared/constants';

// The only way the app shows a toast (CONVENTIONS 9): one visible at a time, 5000 ms.
type Toast = { title: string; message?: string };

function show(color: string, { title, message }: Toast) {
  notifications.clean();
  notifications.show({ title, message: message ?? '', color, autoClose: toastDefaults.autoCloseMs, withBorder: true });
}

export const notify = {
  success: (title: string, message?: string) => show('teal', { title, message }),
  info: (title: string, message?: string) => show('blue', { title, message }),
  error: (title: string, message?: string) => show('red', { title, message }),
};
