import { createTheme, localStorageColorSchemeManager, Modal } from '@mantine/core';
import { storageKeys } from '../../shared/constants';

export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  headings: { fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
  components: {
    // Every dialog's close button gets an accessible name.
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
  },
});

// The colour scheme lives under 'theme' (default light) and is mirrored as a class on <html>.
export const colorSchemeManager = localStorageColorSchemeManager({ key: storageKeys.theme });
