// The chat's input grows with its text up to 8 lines. Where the browser can do that itself (CSS
// field-sizing, Chromium), it does, and the input is Mantine's plain Input as a textarea: Mantine's
// Textarea measures a hidden copy of the input on mount and on every change (the first measuring
// forced the layout of the whole page inside the commit that first draws /app: 75 ms of
// Lighthouse's phone in one task), and its code was 2 KB gzipped of every first visit.
// Elsewhere Mantine's Textarea with autosize is loaded, by /app's loader, before the
// chat page is drawn. The prerendered placeholder (no CSS object in Node) draws the plain input.
export const cssAutosize = typeof CSS === 'undefined' || CSS.supports('field-sizing', 'content');

type AutosizeTextarea = typeof import('./AutosizeTextarea').AutosizeTextarea;
let loaded: AutosizeTextarea | undefined;

/** Loads Mantine's Textarea where the browser cannot size the input itself; at once elsewhere. */
export async function loadComposerInput(): Promise<void> {
  if (cssAutosize || loaded) return;
  loaded = (await import('./AutosizeTextarea')).AutosizeTextarea;
}

/** Mantine's Textarea once loaded where it is needed; undefined where the plain input grows by itself. */
export function autosizeTextarea(): AutosizeTextarea | undefined {
  return loaded;
}
