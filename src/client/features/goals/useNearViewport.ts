import { useEffect, useRef, useState } from 'react';

// How far outside the visible area an element counts as near: about a screen's height, so what
// the reader scrolls to next is ready before it arrives.
const nearMargin = '900px 0px';

// The page's scrolling container (PageFrame marks it). Found by an attribute, not by reading each
// ancestor's computed style: that forced a style recalculation per card, on pages of 100 cards.
function scrollParent(element: Element): Element | null {
  return element.closest('[data-scroll-root]');
}

/**
 * True once the element has come near the visible part of its scrolling container (and from
 * then on). `initially` skips the wait for what is known to be on screen at first.
 */
export function useNearViewport<T extends Element>(initially: boolean) {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(initially);
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), {
      root: scrollParent(element),
      rootMargin: nearMargin,
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  return { ref, near };
}
