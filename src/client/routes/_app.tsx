import { Center, Loader, useMantineTheme } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Outlet, useRouterState } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useState } from 'react';
import { chatLoadingTitle, documentTitle, pageTitles } from '../../shared/texts/pageTitles';
import { AfterFirstPaint } from '../components/shell/AfterFirstPaint';
import { AppFrame } from '../components/shell/AppFrame';
import { AppHeader } from '../components/shell/AppHeader';
import { Sidebar } from '../components/shell/Sidebar';
import { SidebarSkeleton } from '../components/shell/SidebarSkeleton';
import { usePreloadToasts } from '../components/Toasts';
import { MicrosoftSignOutWatcher } from '../features/auth/MicrosoftSignOutWatcher';
import { useSession } from '../features/auth/useSession';
import { GoalReminders } from '../features/goals/GoalReminders';
import { AdoptBrowserTimeZone } from '../features/meetings/AdoptBrowserTimeZone';
import { ConnectionFlagsWatcher } from '../features/microsoft/SidebarMicrosoft';
import { OnboardingDialog } from '../features/onboarding/OnboardingDialog';
import { SearchDialog } from '../features/search/SearchDialog';
import { trpc } from '../lib/trpc';

// Shown only when demo mode is off and nobody is signed in: its forms (tabs, zod schemas) are not
// part of the app's first visit.
const SignInPanel = lazy(() => import('../features/auth/SignInPanel').then((module) => ({ default: module.SignInPanel })));

// The app screens: header, sidebar (an overlay toggled by the burger on small screens), content.
export const Route = createFileRoute('/_app')({
  // Route loaders stay in the entry script, so they start at once, in parallel with the route's
  // chunks; the tRPC client they need is imported here, not by the entry.
  loader: async ({ context }) => {
    const { trpc } = await import('../lib/trpc');
    return context.queryClient.ensureQueryData(trpc.auth.session.queryOptions());
  },
  pendingComponent: () => (
    <Center h="100vh">
      <Loader aria-label="Loading" />
    </Center>
  ),
  component: AppLayout,
});

/**
 * The tab's title of the app's pages: the page's name, and a stored chat's own title
 * (from the chat list the chat page loads, and the sidebar shows); signed out, the sign-in's.
 */
function useAppPageTitle(signedIn: boolean) {
  const routeId = useRouterState({ select: (state) => state.matches.at(-1)?.routeId });
  const chatId = useRouterState({
    select: (state) => {
      const match = state.matches.at(-1);
      return match?.routeId === '/_app/app' ? (match.search as { chat?: number }).chat : undefined;
    },
  });
  const chats = useQuery({ ...trpc.chats.list.queryOptions(), enabled: signedIn && chatId !== undefined });
  const chatTitle = chatId === undefined ? undefined : (chats.data?.find((chat) => chat.id === chatId)?.title ?? chatLoadingTitle);
  const name = !signedIn ? pageTitles['/login'] : (chatTitle ?? (routeId ? pageTitles[routeId] : undefined));
  useEffect(() => {
    if (routeId?.startsWith('/_app')) document.title = documentTitle(name);
  }, [routeId, name]);
}

function AppLayout() {
  const { user } = useSession();
  useAppPageTitle(Boolean(user));
  const [navOpened, nav] = useDisclosure(false);
  // The sidebar is drawn where it shows: beside the page from the navbar's breakpoint (sm) up, on
  // a phone once the burger has opened it (and kept from then on). Drawing it hidden was a third
  // of the work of a phone's first visit to /app (Total Blocking Time).
  const { breakpoints } = useMantineTheme();
  const wide = useMediaQuery(`(min-width: ${breakpoints.sm})`, undefined, { getInitialValueInEffect: false });
  const [navWasOpened, setNavWasOpened] = useState(false);
  if (navOpened && !navWasOpened) setNavWasOpened(true);
  usePreloadToasts();

  const header = <AppHeader navOpened={navOpened} onToggleNav={user ? nav.toggle : undefined} />;
  // Without a user there is no sidebar: no space kept for it, no burger to open it.
  if (!user) {
    return (
      // Demo mode off and nobody signed in: data calls would answer 401, so ask to sign in.
      <AppFrame header={header}>
        <Center mih="calc(100dvh - 60px)" p="md">
          <Suspense fallback={<Loader aria-label="Loading" />}>
            <SignInPanel />
          </Suspense>
        </Center>
      </AppFrame>
    );
  }
  // On a phone the sidebar is off screen until the burger opens it: it is drawn then.
  const sidebar =
    wide || navOpened || navWasOpened ? (
      <AfterFirstPaint fallback={<SidebarSkeleton />}>
        <Sidebar onNavigate={nav.close} />
      </AfterFirstPaint>
    ) : (
      <SidebarSkeleton />
    );
  return (
    <AppFrame header={header} navbar={{ content: sidebar, opened: navOpened }} fill>
      <Outlet />
      <AfterFirstPaint>
        <OnboardingDialog />
        <ConnectionFlagsWatcher />
        <GoalReminders />
        <MicrosoftSignOutWatcher />
        <AdoptBrowserTimeZone />
      </AfterFirstPaint>
      {/* Outside AfterFirstPaint: Ctrl+K works from the first moment (closed, it draws nothing). */}
      <SearchDialog />
    </AppFrame>
  );
}
