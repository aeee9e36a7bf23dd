import '../styles/mantineApp';
import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';

// Loaded by Toasts.tsx with the first toast.
export default function ToastStack({ limit, autoClose }: { limit: number; autoClose: number }) {
  return <Notifications limit={limit} position="bottom-right" autoClose={autoClose} />;
}
