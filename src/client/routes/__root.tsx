import { useMantineColorScheme } from '@mantine/core';
import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, Outlet, useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { SkipLink } from '../components/SkipLink';
import { darkThemeColor, lightThemeColor } from '../../shared/colorSchemeScript';
import { documentTitle, pageTitles } from '../../shared/texts/pageTitles';

// Only the query client: route loaders import the tRPC client themselves when they run, so that
// it is not part of the entry script every page loads.
export type RouterContext = { queryClient: QueryClient };

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
});

function RootLayout() {
  const { colorScheme } = useMantineColorScheme();
  useEffect(() => {
    // The product spec's entities: the theme is applied as a class attribute on the document.
    document.documentElement.classList.remove('light', 'dark');
    document.documentElement.classList.add(colorScheme === 'dark' ? 'dark' : 'light');
    // The phone's address bar follows the page (the pages' colour-scheme script sets it first).
    const dark = colorScheme === 'dark' || (colorScheme === 'auto' && window.matchMedia('(prefers-color-scheme: dark)').matches);
    for (const meta of document.querySelectorAll('meta[name="theme-color"]')) meta.setAttribute('content', dark ? darkThemeColor : lightThemeColor);
  }, [colorScheme]);
  // The tab's title names the page: the public pages' here (the prerendered ones carry
  // theirs in their HTML too, scripts/prerender.mjs); the app's pages' in routes/_app.tsx, which
  // knows a chat's title.
  const routeId = useRouterState({ select: (state) => state.matches.at(-1)?.routeId });
  useEffect(() => {
    if (routeId === undefined || routeId.startsWith('/_app')) return;
    document.title = documentTitle(pageTitles[routeId]);
  }, [routeId]);
  return (
    <>
      <SkipLink />
      <Outlet />
    </>
  );
}
