// What lib/navLinkNesting.tsx loads when a NavLink with children is first drawn.
export { AccordionChevron, Collapse } from '@mantine/core';
