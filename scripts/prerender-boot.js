// The prerendered public pages' only script, /login excepted (scripts/prerender.mjs writes it to
// dist/client/assets/boot-<hash>.js and puts it in each page in place of the entry script and
// its modulepreload links). It lets the browser draw the page first, then fetches and runs the
// app: on a phone the entry (React, the router) takes hundreds of milliseconds of CPU, and a
// browser that has the scripts before it has painted runs them first, so the prerendered page
// appeared only after them (Lighthouse FCP and LCP on /). After the first paint the
// entry is imported and the scripts named by the tag preloaded, a few a task (at once when the
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
// /app's placeholder: its chat input can be typed into before the app runs (the app takes the text,
// src/client/lib/earlyInput.ts, which goes on from here). Enter there starts no new line: the text
// it meant to send is marked (a blank one is not), and the app sends it once it has taken it over,
// if it is still what the input holds.
const onKeyDown = (event) => {
  const input = event.target;
  if (!(input instanceof HTMLTextAreaElement) || !input.closest('[data-app-placeholder]')) return;
  if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
  event.preventDefault();
  if (input.value.trim()) input.setAttribute('data-early-send', input.value);
};
// Text changed after the Enter is not what it meant to send: the mark (and the line under the
// input that says the text will be sent) goes.
const onInput = (event) => {
  const input = event.target;
  if (!(input instanceof HTMLTextAreaElement) || !input.hasAttribute('data-early-send')) return;
  if (input.getAttribute('data-early-send') !== input.value) input.removeAttribute('data-early-send');
};
document.addEventListener('click', onClick, true);
document.addEventListener('submit', onSubmit, true);
document.addEventListener('keydown', onKeyDown, true);
document.addEventListener('input', onInput, true);
document.documentElement.dataset.hydration = 'pending';
window.takeEarlyInteractions = () => {
  document.removeEventListener('click', onClick, true);
  document.removeEventListener('submit', onSubmit, true);
  document.removeEventListener('keydown', onKeyDown, true);
  document.removeEventListener('input', onInput, true);
  return held.splice(0);
};

// Each request the page starts costs its main thread 1 to 2 ms (4 to 8 ms on Lighthouse's phone):
// the preloads are put in a few at a time, one task each, so that no task is long (Total Blocking Time;
// all of /app's 80 at once were a 300 ms task after the first paint, and 8 a task still 13 to 25
// ms here, over Lighthouse's 50 ms at its 4x). The next batch follows through
// a message, not a timer: nested timers are held back 4 ms each. The entry is imported first.
const preloadBatch = 4;
const pending = [];
const channel = new MessageChannel();
channel.port1.onmessage = () => {
  const links = document.createDocumentFragment();
  for (const href of pending.splice(0, preloadBatch)) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    links.appendChild(link);
  }
  document.head.appendChild(links);
  if (pending.length > 0) channel.port2.postMessage(null);
};
function preload(hrefs) {
  pending.push(...hrefs);
  channel.port2.postMessage(null);
}

function start() {
  import(tag.dataset.entry);
  preload((tag.dataset.preload ?? '').split(' ').filter(Boolean));
}

// After the first contentful paint, as the browser reports it: a frame's callback and a timer
// after it usually came after the paint, but not always (the app's scripts then counted toward
// Lighthouse's FCP and LCP). Two frames later at the latest, should no paint be reported; at
// once in a hidden tab, where no frame comes.
function afterFirstPaint(callback) {
  let started = false;
  const go = () => {
    if (started) return;
    started = true;
    observer?.disconnect();
    setTimeout(callback, 0);
  };
  const observer = 'PerformanceObserver' in window ? new PerformanceObserver((list) => list.getEntriesByName('first-contentful-paint').length > 0 && go()) : undefined;
  observer?.observe({ type: 'paint', buffered: true });
  requestAnimationFrame(() => setTimeout(() => requestAnimationFrame(() => setTimeout(go, 0)), 0));
}

if (document.visibilityState === 'hidden') start();
else afterFirstPaint(start);
