import type { MouseEvent } from 'react';
import { mainContentId, skipLinkText } from '../../shared/texts/pageTitles';
import classes from './skipLink.module.css';

/**
 * 'Skip to main content': the first thing Tab reaches on every page, shown while it has
 * the focus, moving the focus to the page's main landmark (past the header and the sidebar).
 * Before the app has run (a prerendered page) it is a plain link to the landmark's id.
 */
export function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(mainContentId) ?? document.querySelector('main');
    if (!main) return;
    event.preventDefault();
    // Focusable by script only: Tab goes on from inside the page, not to the landmark itself.
    if (!main.hasAttribute('tabindex')) main.setAttribute('tabindex', '-1');
    main.focus();
  };
  return (
    <a href={`#${mainContentId}`} className={classes.skipLink} onClick={skip}>
      {skipLinkText}
    </a>
  );
}
