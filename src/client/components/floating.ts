// Mantine's Menu and Tooltip, loaded on demand by LazyFloating.tsx: they bring floating-ui and
// Mantine's popover code (about 25 KB gzipped), which a first visit to /app does not need until the
// pointer rests on a button with a tooltip or a menu is opened.
export { Menu, Tooltip } from '@mantine/core';
