// The browser tab's title of each client route: the page's name, then the brand. Read
// by the entry (routes/__root.tsx, the app shell) and by the build's prerendering, so this module
// imports nothing and holds literal strings only (see CONVENTIONS: no property read at the top).
export const brandTitle = 'AI Coach';

/** 'Goals · AI Coach'; the brand alone without a name (the landing page). */
export const documentTitle = (name?: string | null): string => (name ? `${name} · ${brandTitle}` : brandTitle);

/** The page's name by route id (TanStack Router's); a route without one shows the brand alone. */
export const pageTitles: Record<string, string> = {
  '/login': 'Log in',
  '/terms': 'Terms of Service',
  '/privacy': 'Privacy Policy',
  '/_app/admin': 'Organisation',
  '/_app/app': 'New Chat',
  '/_app/debrief': 'Meeting debrief',
  '/_app/debriefs': 'Meeting trends',
  '/_app/goals': 'Goals',
  '/_app/integrations': 'Manage Integrations',
  '/_app/knowledge-base': 'User Knowledge Base',
  '/_app/meetings': 'Meetings',
  '/_app/memory': 'Memory',
  '/_app/microsoft-emails': 'Microsoft Emails',
  '/_app/microsoft-folders': 'Manage Folders',
  '/_app/microsoft-manual-auth': 'Connect Microsoft',
  '/_app/nudges': 'Nudges',
  '/_app/phone-calls': 'Voice Assistant',
  '/_app/rehearsals/': 'Rehearsals',
  '/_app/rehearsals/$id': 'Rehearsal',
  '/_app/settings': 'Settings',
  '/_app/writing-style-analysis': 'Writing Style Analysis',
  // No route matched: the not-found page.
  __root__: 'Page not found',
};

/** A stored chat still loading (its title comes with the chat list). */
export const chatLoadingTitle = 'Chat';

/** The first stop of the keyboard on every page: to the page's main landmark. */
export const skipLinkText = 'Skip to main content';
/** The id of every page's main landmark, the skip link's target. */
export const mainContentId = 'main-content';
