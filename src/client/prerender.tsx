import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { renderToString } from 'react-dom/server';
import { App, createAppRouter } from './App';
import { AppShellPlaceholder } from './components/shell/AppShellPlaceholder';
import { colorSchemeManager, theme } from './lib/theme';
import { trimEndChars } from '../shared/trimText.js';
import { chatLoadingTitle, documentTitle, pageTitles } from '../shared/texts/pageTitles.js';

// The build's prerendering entry (vite.config.ts, SSR build; scripts/prerender.mjs): a public
// page rendered to HTML as the browser's first render draws it, for the server to send before
// any script runs. Nothing here reads data: public pages need none.

// Links are written as paths; the origin only has to be fixed (there is no window here).
const origin = 'http://localhost';

export async function render(url: string): Promise<{ html: string; statusCode: number; title: string }> {
  const queryClient = new QueryClient();
  const router = createAppRouter({ queryClient, history: createMemoryHistory({ initialEntries: [url] }), origin, prerendering: true });
  await router.load();
  const html = renderToString(<App router={router} queryClient={queryClient} prerendering />);
  // A path no route matches matches the root alone (which renders the not-found page).
  const routeId = router.state.matches.at(-1)?.routeId ?? '__root__';
  const notFound = routeId === '__root__';
  // The page's name in the tab from the first byte, as the app then keeps it (routes/__root.tsx).
  return { html, statusCode: notFound ? 404 : 200, title: documentTitle(pageTitles[routeId]) };
}

/** The title of /app's placeholder pages: a new conversation, or a stored one loading. */
export function appShellTitle(openChat: boolean): string {
  return documentTitle(openChat ? chatLoadingTitle : pageTitles['/_app/app']);
}

/** The client routes' ids that draw a page but have no title in pageTitles (the build refuses them). */
export function untitledRoutes(): string[] {
  const router = createAppRouter({ queryClient: new QueryClient(), history: createMemoryHistory(), origin, prerendering: true });
  return Object.keys(router.routesById).filter((id) => id !== '__root__' && id !== '/' && id !== '/_app' && !pageTitles[id]);
}

/** Every path a client route answers (the server sends the not-found page for any other). */
export function routePaths(): string[] {
  const router = createAppRouter({ queryClient: new QueryClient(), history: createMemoryHistory(), origin, prerendering: true });
  return Object.keys(router.routesByPath).map((route) => (route.length > 1 ? trimEndChars(route, '/') : route));
}

/**
 * /app's placeholder (AppShellPlaceholder): what /app looks like before the app has run, a new
 * conversation or (openChat) one loading. The browser replaces it rather than hydrating it (it is
 * not what the app renders), so it gets a router of its own, for its links.
 */
export async function renderAppShell(openChat: boolean): Promise<string> {
  const route = createRootRoute({ component: () => <AppShellPlaceholder openChat={openChat} /> });
  const router = createRouter({ routeTree: route, history: createMemoryHistory({ initialEntries: ['/app'] }), origin });
  await router.load();
  return renderToString(
    <MantineProvider theme={theme} defaultColorScheme="light" colorSchemeManager={colorSchemeManager}>
      <QueryClientProvider client={new QueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}
