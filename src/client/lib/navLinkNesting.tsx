import { type ComponentProps, lazy, Suspense } from 'react';

// Stands in for the two modules Mantine's NavLink draws only for nested links (vite.config.ts
// resolves NavLink's imports of them here): Collapse, with the two collapse hooks behind it, and
// Accordion's chevron. The sidebar's links have no children, yet those modules were about 2 KB
// gzipped of every first visit to /app. The real components load when a link with
// children is first drawn, so a nested NavLink behaves as Mantine's own.
const RealCollapse = lazy(() => import('./navLinkNestingParts').then((module) => ({ default: module.Collapse })));
const RealChevron = lazy(() => import('./navLinkNestingParts').then((module) => ({ default: module.AccordionChevron })));

type CollapseProps = ComponentProps<typeof import('./navLinkNestingParts').Collapse>;
type ChevronProps = ComponentProps<typeof import('./navLinkNestingParts').AccordionChevron>;

export function Collapse(props: CollapseProps) {
  return (
    <Suspense fallback={null}>
      <RealCollapse {...props} />
    </Suspense>
  );
}

export function AccordionChevron(props: ChevronProps) {
  return (
    <Suspense fallback={null}>
      <RealChevron {...props} />
    </Suspense>
  );
}
