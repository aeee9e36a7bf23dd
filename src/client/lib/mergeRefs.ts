import { useMergedRef } from '@mantine/hooks';
import type { Ref } from 'react';

// Stands in for floating-ui's useMergeRefs in Mantine's ScrollArea, the only thing the ScrollArea
// takes from floating-ui (vite.config.ts resolves that one import here). Every Modal renders
// through ScrollArea's module, so without this the onboarding dialog of a first visit to /app
// loaded the whole of floating-ui (about 17 KB gzipped) for one hook. Same contract:
// one ref callback that sets every given ref (and runs their React 19 cleanups).
export function useMergeRefs<T>(refs: ReadonlyArray<Ref<T> | undefined>) {
  return useMergedRef<T>(...(refs as Array<Ref<T>>));
}
