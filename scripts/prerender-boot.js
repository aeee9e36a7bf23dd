// The prerendered public pages' only script, /login excepted (scripts/prerender.mjs writes it to
// dist/client/assets/boot-<hash>.js and puts it in each page in place of the entry script and
// its modulepreload links). It lets the browser draw the page first, then fetches and runs the
// app: on a phone the entry (React, the router) takes hundreds of milliseconds of CPU, and a
// browser that has the scripts before it has painted runs them first, so the prerendered page
// appeared only after them (issue 10: Lighthouse FCP and LCP on /). After the next frame the
// scripts named by the tag are preloaded in parallel and the entry imported (at once when the
// tab is hidden, where no frame comes). Clicks and form submissions made before React has taken
// the page over are held, as src/client/main.tsx does from there on; main.tsx takes them over.
const tag = document.querySelector('script[data-entry]');
const held = [];
const onClick = (event) => {
  const target = event.target instanceof HTMLElement ? event.target : null;
  if (!target || target.closest('a[href]')) return;
  event.preventDefault();
  event.stopPropagation();
  held.push(() => target.isConnected && target.click());
};
const onSubmit = (event) => {
  const form = event.target instanceof HTMLFormElement ? event.target : null;
  if (!form) return;
  event.preventDefault();
  event.stopPropagation();
  held.push(() => form.isConnected && form.requestSubmit());
};
document.addEventListener('click', onClick, true);
document.addEventListener('submit', onSubmit, true);
document.documentElement.dataset.hydration = 'pending';
window.takeEarlyInteractions = () => {
  document.removeEventListener('click', onClick, true);
  document.removeEventListener('submit', onSubmit, true);
  return held.splice(0);
};

function start() {
  // One insertion for all of them: each link put into the head on its own cost a style update
  // (/app has about 80; 250 ms of a phone's main thread, one after the other).
  const links = document.createDocumentFragment();
  for (const href of (tag.dataset.preload ?? '').split(' ').filter(Boolean)) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    links.appendChild(link);
  }
  document.head.appendChild(links);
  import(tag.dataset.entry);
}

if (document.visibilityState === 'hidden') start();
else requestAnimationFrame(() => setTimeout(start, 0));
