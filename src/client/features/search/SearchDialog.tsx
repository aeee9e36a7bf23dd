import { lazy, Suspense, useEffect, useState } from 'react';

// Search every chat: Ctrl+K or ⌘K opens it from anywhere in the app. Arrow keys move
// through the results, Enter opens one: the chat, scrolled to that message.

export const openSearchEvent = 'ai-coach:open-search';

/** Opens the search dialog (the sidebar's button; the shortcut does it itself). */
export function openSearch() {
  window.dispatchEvent(new Event(openSearchEvent));
}

// The dialog itself (Mantine's Modal, the search field and results) loads when first opened: the
// app's first view only listens for the shortcut (the first visit's JavaScript).
const SearchModal = lazy(() => import('./SearchModal').then((module) => ({ default: module.SearchModal })));

export function SearchDialog() {
  const [opened, setOpened] = useState(false);
  const [wanted, setWanted] = useState(false);
  if (opened && !wanted) setWanted(true);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setOpened(true);
      }
    };
    const onOpen = () => setOpened(true);
    window.addEventListener('keydown', onKey);
    window.addEventListener(openSearchEvent, onOpen);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener(openSearchEvent, onOpen);
    };
  }, []);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <SearchModal opened={opened} onClose={() => setOpened(false)} />
    </Suspense>
  );
}
