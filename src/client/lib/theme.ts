import { createTheme, DEFAULT_THEME, localStorageColorSchemeManager, type MantineColorsTuple } from '@mantine/core';
import { storageKeys, tooltipDefaults } from '../../shared/constants';

// Text contrast (WCAG AA, 4.5:1 for body text):
// - Mantine's default light primary shade, indigo 6 (#4c6ef5), is 4.3:1 against white, both as
//   white text on a filled button and as link or badge text on white; indigo 8 (#3b5bdb) is 5.7:1
//   on white and 5.1:1 on the light variant's tinted background.
// - Dimmed text is gray 6 in the light scheme (#868e96, 3.3:1 on white). #666d74 keeps it lighter
//   than body text and is 5.2:1 on white, 4.7:1 on gray 1 and on the light indigo tint.
const gray = DEFAULT_THEME.colors.gray.map((shade, index) => (index === 6 ? '#666d74' : shade)) as unknown as MantineColorsTuple;

export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 8, dark: 8 },
  colors: { gray },
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  headings: { fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
  components: {
    // Every dialog's close button gets an accessible name. A plain object, not Modal.extend():
    // importing Modal here would put it (and its scroll lock, focus trap and transitions) in the
    // entry script of every page.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    // The product spec's constants and limits: a tooltip opens after 700 ms (TooltipDelays in App.tsx skips the delay
    // within 300 ms of another closing).
    Tooltip: { defaultProps: { openDelay: tooltipDefaults.openDelayMs } },
  },
});

// The colour scheme lives under 'theme' (default light) and is mirrored as a class on <html>.
export const colorSchemeManager = localStorageColorSchemeManager({ key: storageKeys.theme });
