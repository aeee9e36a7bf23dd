import '../styles/mantineApp';
import '@mantine/notifications/styles.css';
import { Portal } from '@mantine/core';
import { Notifications } from '@mantine/notifications';

import { toastDefaults } from '../../shared/constants';
import classes from './toastStack.module.css';
import { toastRegionLabel } from './toastRegion';

// Loaded by Toasts.tsx with the first toast. The region F8 focuses (the product spec's constants and limits), at most
// 420 px wide; Mantine's own drag and wheel dismissal are off: a swipe right of 50 px dismisses
// (swipeToDismiss, given to each toast by lib/notify.ts).
//
// Mantine draws one container per screen corner and gives each the props it is given, so the
// region is one element around them (a labelled section): screen readers find one
// 'Notifications (F8)' region, the one that holds the toasts, and F8 focuses it (without
// scrolling: it sits at the end of the page).
export default function ToastStack({ limit, autoClose }: { limit: number; autoClose: number }) {
  return (
    <Portal>
      <section aria-label={toastRegionLabel} tabIndex={-1} data-toast-region className={classes.region}>
        <Notifications
          withinPortal={false}
          limit={limit}
          position="bottom-right"
          autoClose={autoClose}
          containerWidth={toastDefaults.maxWidthPx}
          allowDragDismiss={false}
          allowScrollDismiss={false}
        />
      </section>
    </Portal>
  );
}
