import type { ReactNode } from 'react';
import { mainContentId } from '../../../shared/texts/pageTitles';
import classes from './appFrame.module.css';

// react-remove-scroll's class for fixed elements at the right edge (RemoveScroll.classNames.zeroRight):
// while a dialog locks the page's scroll, the header keeps its place as the scroll bar goes.
const zeroRight = 'right-scroll-bar-position';

/**
 * The app's frame: the header, the sidebar and the page (the product spec's app screens). The
 * layout is static CSS (appFrame.module.css), as Mantine's AppShell laid it out with a 60 px header
 * and a 280 px navbar collapsing at sm; AppShell computed it at run time, with a resize handle and
 * media styles the app never used: about 8 KB gzipped of every first visit to /app.
 * Drawn by the app (routes/_app.tsx) and by its prerendered placeholder alike, so nothing moves
 * when one replaces the other. `placeholder` makes the header and sidebar inert.
 */
export function AppFrame(props: {
  header: ReactNode;
  /** Without it, no sidebar and no room kept for one. */
  navbar?: { content: ReactNode; opened: boolean };
  /** The page fills the window's height below the header, as a column (the chat page). */
  fill?: boolean;
  placeholder?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={classes.frame} data-with-navbar={props.navbar ? '' : undefined}>
      <header className={`${classes.header} ${zeroRight}`} inert={props.placeholder}>
        {props.header}
      </header>
      {props.navbar && (
        <nav className={classes.navbar} aria-label="Sidebar" data-opened={props.navbar.opened ? '' : undefined} inert={props.placeholder}>
          {props.navbar.content}
        </nav>
      )}
      <main id={mainContentId} className={classes.main} data-fill={props.fill ? '' : undefined}>
        {props.children}
      </main>
    </div>
  );
}
