import { createTheme, localStorageColorSchemeManager } from '@mantine/core';
import { storageKeys } from '../../shared/constants';

export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  headings: { fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
  components: {
    // Every dialog's close button gets an accessible name. A plain object, not Modal.extend():
    // importing Modal here would put it (and its scroll lock, focus trap and transitions) in the
    // entry script of every page.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
  },
});

// The colour scheme lives under 'theme' (default light) and is mirrored as a class on <html>.
export const colorSchemeManager = localStorageColorSchemeManager({ key: storageKeys.theme });
