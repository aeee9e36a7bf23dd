import '../styles/mantineApp';
import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';

import { toastDefaults } from '../../shared/constants';
import { toastRegionLabel } from './toastRegion';

// Loaded by Toasts.tsx with the first toast. The region F8 focuses (SPEC section 9), at most
// 420 px wide; Mantine's own drag and wheel dismissal are off: a swipe right of 50 px dismisses
// (swipeToDismiss, given to each toast by lib/notify.ts).
export default function ToastStack({ limit, autoClose }: { limit: number; autoClose: number }) {
  return (
    <Notifications
      limit={limit}
      position="bottom-right"
      autoClose={autoClose}
      containerWidth={toastDefaults.maxWidthPx}
      allowDragDismiss={false}
      allowScrollDismiss={false}
      role="region"
      aria-label={toastRegionLabel}
      tabIndex={-1}
      data-toast-region
    />
  );
}
