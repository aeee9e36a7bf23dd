import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, createAppRouter } from './App';
import { queryClient } from './lib/queryClient';

const router = createAppRouter({ queryClient });
const root = document.getElementById('root')!;
const app = <App router={router} queryClient={queryClient} />;

if (root.firstElementChild) {
  // A public page prerendered at build time (scripts/prerender.mjs): load the route's code first,
  // so that the first render is the prerendered one, then take over the existing DOM.
  void router.load().then(() => hydrateRoot(root, app));
} else {
  createRoot(root).render(app);
}
