import { MantineProvider } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRouter, type RouterHistory, RouterProvider } from '@tanstack/react-router';
import { StrictMode, Suspense } from 'react';
import { NotFoundPage } from './components/NotFoundPage';
import { Toasts } from './components/Toasts';
import { colorSchemeManager, theme } from './lib/theme';
import { routeTree } from './routeTree.gen';

// The app as both the browser (main.tsx) and the build's prerendering (prerender.tsx) render it:
// the same router options and providers, so prerendered HTML and the browser's first render match.
// No Mantine ColorSchemeScript: rendered by React it never ran, and the Content-Security-Policy
// would block it. Every built page carries src/shared/colorSchemeScript.ts first in its head (the
// CSP allows it by its hash), which applies the stored scheme before the first paint;
// MantineProvider's colour scheme manager takes over when the app mounts.

export function createAppRouter(options: { queryClient: QueryClient; history?: RouterHistory; origin?: string; prerendering?: boolean }) {
  return createRouter({
    routeTree,
    history: options.history,
    origin: options.origin,
    context: { queryClient: options.queryClient },
    defaultPreload: 'intent',
    defaultPreloadStaleTime: 0,
    // Prerendering leaves it out: the router's server build would write an inline script (which
    // the Content-Security-Policy blocks, and which the browser's render does not have).
    scrollRestoration: !options.prerendering,
    defaultNotFoundComponent: NotFoundPage,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}

/**
 * `prerendering`: the router's server build renders its matches without the Suspense boundary
 * that its browser build puts around them, and a boundary leaves markers in the HTML that
 * hydration looks for. Prerendering adds one at the same place (no element in between).
 */
export function App(props: { router: AppRouter; queryClient: QueryClient; prerendering?: boolean }) {
  const router = <RouterProvider router={props.router} />;
  return (
    <StrictMode>
      <MantineProvider theme={theme} defaultColorScheme="light" colorSchemeManager={colorSchemeManager}>
        <Toasts />
        <QueryClientProvider client={props.queryClient}>
          {props.prerendering ? <Suspense fallback={null}>{router}</Suspense> : router}
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>
  );
}
