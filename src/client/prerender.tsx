import { QueryClient } from '@tanstack/react-query';
import { createMemoryHistory } from '@tanstack/react-router';
import { renderToString } from 'react-dom/server';
import { App, createAppRouter } from './App';

// The build's prerendering entry (vite.config.ts, SSR build; scripts/prerender.mjs): a public
// page rendered to HTML as the browser's first render draws it, for the server to send before
// any script runs. Nothing here reads data: public pages need none.

// Links are written as paths; the origin only has to be fixed (there is no window here).
const origin = 'http://localhost';

export async function render(url: string): Promise<{ html: string; statusCode: number }> {
  const queryClient = new QueryClient();
  const router = createAppRouter({ queryClient, history: createMemoryHistory({ initialEntries: [url] }), origin, prerendering: true });
  await router.load();
  const html = renderToString(<App router={router} queryClient={queryClient} prerendering />);
  // A path no route matches matches the root alone (which renders the not-found page).
  const notFound = router.state.matches.at(-1)?.routeId === '__root__';
  return { html, statusCode: notFound ? 404 : 200 };
}

/** Every path a client route answers (the server sends the not-found page for any other). */
export function routePaths(): string[] {
  const router = createAppRouter({ queryClient: new QueryClient(), history: createMemoryHistory(), origin, prerendering: true });
  return Object.keys(router.routesByPath).map((route) => (route.length > 1 ? route.replace(/\/+$/, '') : route));
}
