import type { MenuProps, TooltipProps } from '@mantine/core';
import { tooltipDefaults } from '../../shared/constants';
import { cloneElement, useEffect, useRef, useState, useSyncExternalStore, type PointerEvent, type ReactElement, type ReactNode, type SyntheticEvent } from 'react';

// Tooltips and menus whose code (floating-ui, Mantine's Popover, Menu and Tooltip) loads when first
// needed rather than with the page (/app's first-visit JavaScript). Until then the target
// is drawn alone, with the same element and props; its accessible name never depended on the
// tooltip (every target has its own aria-label).
//
// A tooltip's code starts loading when the mouse enters its target; after the open delay (none
// within 300 ms of another tooltip closing), if the pointer is still there, the real Tooltip takes
// over, opened; from then on it is opened and closed by the same rule. A menu's code starts loading when the pointer enters or focus
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

// The product spec's constants and limits: every tooltip opens after 700 ms, and at once within 300 ms of another closing.
// The rule is kept here, by every LazyTooltip, rather than by a delay group around the app:
// Mantine's Tooltip.Group and Floating UI's FloatingDelayGroup it needs were 15 KB gzipped of the
// entry script, on every page, the landing page included.
let lastTooltipClosedAt = Number.NEGATIVE_INFINITY;
const tooltipClosed = () => {
  lastTooltipClosedAt = performance.now();
};

/**
 * Mantine's Tooltip (same props), its code loaded when the pointer first rests on the target.
 * Shown by the pointer only (a mouse: a tap on a phone shows none, as Mantine's default events),
 * open state kept here: the first time, the target is drawn alone until then; once loaded, the
 * Tooltip stays around the target (a swap mounts the target anew, which must not happen under a
 * focused element the user did not touch) and is opened and closed from the same rule.
 */
export function LazyTooltip(allProps: Omit<TooltipProps, 'children'> & { children: TargetElement; openOnFocus?: boolean }) {
  // openOnFocus: the keyboard's focus opens it too, at once (the reason a greyed-out control gives).
  const { openOnFocus, ...props } = allProps;
  const floating = useFloating();
  const [shown, setShown] = useState(false);
  const [wrapped, setWrapped] = useState(false);
  // A press on the target (pointer down, not yet up): the swap waits until its click has been
  // dispatched. The target drawn anew between the press and the release was another element, and
  // the browser sent the click to neither (the press was lost: a voice call that did not start
  // when the tooltip's code arrived, or its open delay ended, during the click).
  const [pressing, setPressing] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  // The press ends with the pointer's release, wherever it is (dragged off the target, no click);
  // the click follows the release in the same input event, so the swap waits one task more.
  useEffect(() => {
    if (!pressing) return;
    let later: ReturnType<typeof setTimeout> | undefined;
    const onRelease = () => {
      later = setTimeout(() => setPressing(false), 0);
    };
    document.addEventListener('pointerup', onRelease, true);
    document.addEventListener('pointercancel', onRelease, true);
    return () => {
      clearTimeout(later);
      document.removeEventListener('pointerup', onRelease, true);
      document.removeEventListener('pointercancel', onRelease, true);
    };
  }, [pressing]);
  if (shown && floating !== null && !wrapped && !pressing) setWrapped(true);
  // The first swap mounts the target anew: focus it again if it had the focus.
  const hadFocus = useRef(false);
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (wrapped && hadFocus.current) ref.current?.focus();
  }, [wrapped]);
  const open = shown && wrapped;
  // The target drawn anew may never see the pointer leave (it left during the swap): while the
  // tooltip is open, a move outside the target closes it as a leave would.
  useEffect(() => {
    if (!open) return;
    const onMove = (event: globalThis.PointerEvent) => {
      if (event.target instanceof Node && ref.current?.contains(event.target)) return;
      tooltipClosed();
      setShown(false);
    };
    document.addEventListener('pointermove', onMove, true);
    return () => document.removeEventListener('pointermove', onMove, true);
  }, [open]);

  const child = props.children;
  const handlers = {
    onPointerEnter: chain(child.props.onPointerEnter, (event) => {
      if ((event as PointerEvent<HTMLElement>).pointerType !== 'mouse') return;
      hadFocus.current = event.currentTarget === document.activeElement;
      preload();
      clearTimeout(timer.current);
      // Within 300 ms of another closing: now, in this event (a timer would wait its turn).
      if (performance.now() - lastTooltipClosedAt <= tooltipDefaults.skipDelayMs) setShown(true);
      else timer.current = setTimeout(() => setShown(true), props.openDelay ?? tooltipDefaults.openDelayMs);
    }),
    onPointerDown: chain(child.props.onPointerDown, () => {
      if (!wrapped) setPressing(true);
    }),
    ...(openOnFocus && {
      onFocus: chain(child.props.onFocus, () => {
        hadFocus.current = true;
        preload();
        clearTimeout(timer.current);
        setShown(true);
      }),
      onBlur: chain(child.props.onBlur, (event) => {
        // The swap draws the target anew (it loses the focus and takes it back): not a leave.
        if (!event.currentTarget.isConnected) return;
        hadFocus.current = false;
        if (open) tooltipClosed();
        setShown(false);
      }),
    }),
    onPointerLeave: chain(child.props.onPointerLeave, () => {
      clearTimeout(timer.current);
      if (open) tooltipClosed();
      // Also when its code was still loading: it must not open once the pointer has gone.
      setShown(false);
    }),
  };

  if (wrapped && floating !== null) {
    // Mantine's Tooltip keeps the child's own ref alongside its own.
    return (
      <floating.Tooltip {...props} opened={open}>
        {cloneElement(child, { ref, ...handlers })}
      </floating.Tooltip>
    );
  }
  return cloneElement(child, handlers);
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
