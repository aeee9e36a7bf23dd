import type { MenuProps, TooltipProps } from '@mantine/core';
import { tooltipDefaults } from '../../shared/constants';
import { cloneElement, useEffect, useRef, useState, useSyncExternalStore, type PointerEvent, type ReactElement, type ReactNode, type SyntheticEvent } from 'react';

// Tooltips and menus whose code (floating-ui, Mantine's Popover, Menu and Tooltip) loads when first
// needed rather than with the page (issue 10: /app's first-visit JavaScript). Until then the target
// is drawn alone, with the same element and props; its accessible name never depended on the
// tooltip (every target has its own aria-label).
//
// A tooltip's code starts loading when the mouse enters its target; after the tooltip's own open
// delay, if the pointer is still there, the real Tooltip takes over, shown at once (and held open
// until the pointer leaves). A menu's code starts loading when the pointer enters or focus
// reaches its button; a click (or Enter/Space) swaps in the real Menu, opened. Each target swaps only when it is used itself: a swap mounts
// the target anew, which must not happen under a focused element the user did not touch.

type FloatingModule = typeof import('./floating');

let loaded: FloatingModule | null = null;
let loading: Promise<FloatingModule> | null = null;
const listeners = new Set<() => void>();

export function loadFloating(): Promise<FloatingModule> {
  loading ??= import('./floating').then(
    (module) => {
      loaded = module;
      for (const listener of listeners) listener();
      return module;
    },
    (error: unknown) => {
      // A failed download (offline, a new deployment) may be tried again by the next hover.
      loading = null;
      throw error;
    },
  );
  return loading;
}

const preload = () => void loadFloating().catch(() => undefined);

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

function useFloating(): FloatingModule | null {
  return useSyncExternalStore(
    subscribe,
    () => loaded,
    () => null,
  );
}

type AnyHandler = ((event: SyntheticEvent) => void) | undefined;
type TargetElement = ReactElement<Record<string, unknown>>;

function chain(own: unknown, next: (event: SyntheticEvent) => void) {
  return (event: SyntheticEvent) => {
    (own as AnyHandler)?.(event);
    next(event);
  };
}

// SPEC section 9: within 300 ms of a tooltip closing the next opens at once. Loaded tooltips get
// that from their delay group (App.tsx); a tooltip not yet loaded skips its own delay the same way.
let lastTooltipLeftAt = Number.NEGATIVE_INFINITY;
const leftTooltip = () => {
  lastTooltipLeftAt = performance.now();
};

/** Mantine's Tooltip (same props), its code loaded when the pointer first rests on the target. */
export function LazyTooltip(props: Omit<TooltipProps, 'children'> & { children: TargetElement }) {
  const floating = useFloating();
  const [armed, setArmed] = useState(false);
  const [held, setHeld] = useState(true);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  // The swap mounts the target anew: focus it again if it had the focus (keyboard, then pointer).
  const hadFocus = useRef(false);
  const ref = useRef<HTMLElement>(null);
  const swapped = armed && floating !== null;
  useEffect(() => {
    if (swapped && hadFocus.current) ref.current?.focus();
  }, [swapped]);
  // The new element may never see the pointer enter (it left during the swap): any move outside
  // it ends the hold as a leave would.
  useEffect(() => {
    if (!swapped || !held) return;
    const onMove = (event: globalThis.PointerEvent) => {
      if (event.target instanceof Node && ref.current?.contains(event.target)) return;
      leftTooltip();
      setHeld(false);
    };
    document.addEventListener('pointermove', onMove, true);
    return () => document.removeEventListener('pointermove', onMove, true);
  }, [swapped, held]);

  if (swapped) {
    // Shown at once, and held open (controlled) until the pointer that armed it leaves; then the
    // Tooltip's own hover handling takes over. Not `defaultOpened`: a tooltip that mounts open
    // while the delay group still names the one just closed is closed by the group at once, and
    // reopened only after the browser's next pointer event on the new element (300 to 550 ms
    // measured), which broke SPEC section 9's instant open within 300 ms of another closing.
    // Mantine's Tooltip keeps the child's own ref alongside its own.
    return (
      <floating.Tooltip {...props} {...(held ? { opened: true } : {})}>
        {cloneElement(props.children, {
          ref,
          onPointerLeave: chain(props.children.props.onPointerLeave, () => {
            leftTooltip();
            setHeld(false);
          }),
        })}
      </floating.Tooltip>
    );
  }

  const child = props.children;
  // A mouse only, as Mantine's tooltips (events.touch off): a tap on a phone shows none.
  return cloneElement(child, {
    onPointerEnter: chain(child.props.onPointerEnter, (event) => {
      if ((event as PointerEvent<HTMLElement>).pointerType !== 'mouse') return;
      hadFocus.current = event.currentTarget === document.activeElement;
      preload();
      clearTimeout(timer.current);
      // Within 300 ms of another closing: armed now, in this event (a timer would wait its turn).
      if (performance.now() - lastTooltipLeftAt <= tooltipDefaults.skipDelayMs) setArmed(true);
      else timer.current = setTimeout(() => setArmed(true), props.openDelay ?? tooltipDefaults.openDelayMs);
    }),
    onPointerLeave: chain(child.props.onPointerLeave, () => {
      clearTimeout(timer.current);
      // Armed while its code was still loading: it must not open, held, once the pointer has gone.
      setArmed(false);
    }),
  });
}

/**
 * Mantine's Menu: `target` is the button (as inside Menu.Target), `dropdown` renders the items
 * with the loaded Menu (Menu.Item, Menu.Label, Menu.Divider). Props as Menu's.
 */
export function LazyMenu(
  props: Omit<MenuProps, 'children' | 'defaultOpened' | 'opened' | 'onChange'> & {
    target: TargetElement;
    dropdown: (Menu: FloatingModule['Menu']) => ReactNode;
  },
) {
  const { target, dropdown, ...menuProps } = props;
  const floating = useFloating();
  const [armed, setArmed] = useState(false);
  const [opened, setOpened] = useState(false);
  const ref = useRef<HTMLElement>(null);
  const swapped = armed && floating !== null;
  // The swap mounts the button anew: it gets the focus before the menu opens, so that the menu
  // hands the focus back to it when it closes, as Mantine's menus do.
  useEffect(() => {
    if (!swapped) return;
    ref.current?.focus();
    setOpened(true);
  }, [swapped]);

  if (swapped) {
    const { Menu } = floating;
    return (
      <Menu {...menuProps} opened={opened} onChange={setOpened}>
        <Menu.Target>{cloneElement(target, { ref })}</Menu.Target>
        <Menu.Dropdown>{dropdown(Menu)}</Menu.Dropdown>
      </Menu>
    );
  }

  return cloneElement(target, {
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    onPointerEnter: chain(target.props.onPointerEnter, preload),
    onFocus: chain(target.props.onFocus, preload),
    onClick: chain(target.props.onClick, () => {
      preload();
      setArmed(true);
    }),
  });
}
