import { toastContainer } from '../components/toastRegion';

// The only way the app shows a toast (architecture rule 17): one visible at a time, 5000 ms, dismissed
// by a swipe right of 50 px (the product spec's constants and limits). The store and the gesture load
// with the first toast (lib/showToast.ts); toasts asked for meanwhile are shown in order.
type Toast = { title: string; message?: string };

function show(color: string, toast: Toast) {
  toastContainer.request();
  void import('./showToast').then((module) => module.showToast(color, toast));
}

export const notify = {
  success: (title: string, message?: string) => show('teal', { title, message }),
  info: (title: string, message?: string) => show('blue', { title, message }),
  error: (title: string, message?: string) => show('red', { title, message }),
};
