import { useId as useReactId } from 'react';

// Stands in for @mantine/hooks' useId inside Mantine (vite.config.ts resolves that one module
// here). Mantine's starts from this same id, then swaps in a random one from a layout effect on
// mount, a leftover of React 17's days: every component that uses it (the app shell's header and
// navbar, every input, every modal) set state while React committed the page, and React drew
// them all again in the same task, synchronously (Total Blocking Time on a phone). React's own useId
// is unique in the tree and the same on the server and in the browser, so this one keeps it. Same
// contract: a given id wins; otherwise `mantine-` and React's id without colons, exactly the id
// Mantine renders first (and prerendered pages, rendered by the original, still hydrate).
export function useId(staticId?: string): string {
  const reactId = useReactId();
  if (typeof staticId === 'string') return staticId;
  return `mantine-${reactId.replace(/:/g, '')}`;
}
