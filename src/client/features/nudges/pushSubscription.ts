import { nudgesTexts } from '../../../shared/texts';
import { trpcClient } from '../../lib/trpc';

// This browser's web push subscription: the service worker is registered and the
// browser subscribed with the server's VAPID key only when the user turns push on.

const urlBase64ToBytes = (value: string) => {
  const base64 = (value + '='.repeat((4 - (value.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
};

export const pushSupported = () => typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

/** Subscribes this browser; throws with a message a person understands when it cannot. */
export async function subscribeThisBrowser(): Promise<void> {
  if (!pushSupported()) throw new Error(nudgesTexts.pushUnsupported);
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new Error(nudgesTexts.pushDenied);
  const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  await navigator.serviceWorker.ready;
  const { publicKey } = await trpcClient.push.key.query();
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: urlBase64ToBytes(publicKey) }));
  const json = subscription.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
  await trpcClient.push.subscribe.mutate({ endpoint: json.endpoint, keys: json.keys });
}

/** Unsubscribes this browser, if it was. */
export async function unsubscribeThisBrowser(): Promise<void> {
  if (!pushSupported()) return;
  const registration = await navigator.serviceWorker.getRegistration('/');
  const subscription = await registration?.pushManager.getSubscription();
  if (!subscription) return;
  await trpcClient.push.unsubscribe.mutate({ endpoint: subscription.endpoint }).catch(() => undefined);
  await subscription.unsubscribe();
}
