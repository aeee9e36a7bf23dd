import { startTransition, useEffect, useState } from 'react';

/**
 * How many of `total` items to render: `first` at once (the first screen), then all of them in a
 * transition right after that first paint. A long list shows its top without waiting for the
 * rest, and the rest never blocks input (React yields to the user while it renders).
 */
export function useProgressiveCount(total: number, first: number): number {
  const [all, setAll] = useState(total <= first);
  useEffect(() => {
    if (all) return;
    const frame = requestAnimationFrame(() => startTransition(() => setAll(true)));
    return () => cancelAnimationFrame(frame);
  }, [all]);
  return all ? total : Math.min(total, first);
}
