import './styles/mantinePublic';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, createAppRouter } from './App';
import { holdEarlyInput } from './lib/earlyInput';
import { queryClient } from './lib/queryClient';

const root = document.getElementById('root')!;
// /app's placeholder: what is typed into its input goes to the app's (lib/earlyInput.ts).
holdEarlyInput(root);

// A prerendered page looks ready before React has taken it over: a click on a tab or a button, or
// a form sent with Enter, would do nothing (or reload the page). They are held here and given
// again once hydration has begun (React then hydrates what they target first). Links need no
// script and keep working as they are.
// Until this script runs, the page's boot script (scripts/prerender-boot.js) holds them; they are
// taken over here.
declare global {
  interface Window {
    takeEarlyInteractions?: () => Array<() => void>;
  }
}

function holdInteractionsUntilHydrated(): () => void {
  const held: Array<() => void> = window.takeEarlyInteractions?.() ?? [];
  const onClick = (event: MouseEvent) => {
    const target = event.target instanceof HTMLElement ? event.target : null;
    if (!target || target.closest('a[href]')) return;
    event.preventDefault();
    event.stopPropagation();
    held.push(() => target.isConnected && target.click());
  };
  const onSubmit = (event: SubmitEvent) => {
    const form = event.target instanceof HTMLFormElement ? event.target : null;
    if (!form) return;
    event.preventDefault();
    event.stopPropagation();
    held.push(() => form.isConnected && form.requestSubmit());
  };
  document.addEventListener('click', onClick, true);
  document.addEventListener('submit', onSubmit, true);
  document.documentElement.dataset.hydration = 'pending';
  return () => {
    document.documentElement.dataset.hydration = 'done';
    document.removeEventListener('click', onClick, true);
    document.removeEventListener('submit', onSubmit, true);
    for (const replay of held.splice(0)) replay();
  };
}

// The router is made, and its first load started, in a task of its own after the one that ran
// this module and everything it imports (React DOM, the router, Mantine's provider): together
// they were the longest task of /app's first visit, 15 to 18 ms of CPU here, over Lighthouse's
// 50 ms at its 4x (Total Blocking Time). Clicks meanwhile are held (the boot script's hold lasts until
// holdInteractionsUntilHydrated takes it over).
setTimeout(start, 0);

function start() {
  const router = createAppRouter({ queryClient });
  const app = <App router={router} queryClient={queryClient} />;

  if (root.querySelector('[data-app-placeholder]')) {
    // /app's placeholder (AppShellPlaceholder, prerendered): not what the app renders, so it is
    // replaced, not hydrated. It stays on screen while the route's code and data load; the app is
    // then rendered as a transition, which React does in slices of a few milliseconds, so a phone's
    // main thread is never blocked for long (Lighthouse's Total Blocking Time), and replaces it in one commit.
    // It is inert but for the chat's input, whose text, caret and focus the app's input takes
    // (lib/earlyInput.ts): nothing in it was clicked (the boot script's hold is let go).
    window.takeEarlyInteractions?.();
    delete document.documentElement.dataset.hydration;
    // A route that fails to load renders its error (the router's own state), as it would anyway.
    void router
      .load()
      .catch(() => undefined)
      .then(() => startTransition(() => createRoot(root).render(app)));
  } else if (root.firstElementChild) {
    // A public page prerendered at build time (scripts/prerender.mjs): load the route's code first,
    // so that the first render is the prerendered one, then take over the existing DOM.
    const release = holdInteractionsUntilHydrated();
    void router.load().then(() => {
      hydrateRoot(root, app);
      setTimeout(release, 0);
    });
  } else {
    createRoot(root).render(app);
  }
}
