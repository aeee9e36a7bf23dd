import { startTransition, useEffect, useState, type ReactNode } from 'react';

/**
 * Mounts its children one task after the page around them (the fallback until then), as a
 * transition: React renders them in slices of a few milliseconds and commits them on their own.
 * For what the first view does not need at once (the sidebar, hidden on phones; the onboarding
 * dialog): the commit that first draws /app is the one long task React cannot split, and on a
 * phone every part of it counts (Lighthouse's Total Blocking Time).
 */
export function AfterFirstPaint(props: { children: ReactNode; fallback?: ReactNode }) {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => startTransition(() => setReady(true)), 0);
    return () => clearTimeout(timer);
  }, []);
  return ready ? props.children : (props.fallback ?? null);
}
