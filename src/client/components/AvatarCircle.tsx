import type { CSSProperties, ReactNode } from 'react';
import classes from './avatarCircle.module.css';

/**
 * A person's initials (the header, the sidebar's account button) or the coach's icon in a round
 * indigo badge, 38 px unless `size` says otherwise. What Mantine's Avatar drew here, without its
 * image loading and group logic: about 2 KB gzipped of /app's first view.
 */
export function AvatarCircle(props: { size?: number; children: ReactNode; tone?: 'person' }) {
  const style = props.size === undefined ? undefined : ({ '--avatar-size': `calc(${props.size / 16}rem * var(--mantine-scale))` } as CSSProperties);
  return (
    <span className={props.tone === 'person' ? `${classes.circle} ${classes.person}` : classes.circle} style={style} aria-hidden data-avatar={props.tone}>
      {props.children}
    </span>
  );
}
