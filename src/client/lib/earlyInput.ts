// /app's prerendered placeholder (AppShellPlaceholder) draws the chat's input before any script
// runs, and a person who sees it starts typing (on a phone slowed four times that is
// seconds before the app has taken over). Its input is the one part of the placeholder that can be
// used: what is typed there, where the caret is, whether it has the focus and an Enter meant to
// send are handed to the app's input (ChatComposer) in the commit that replaces the placeholder.
//
// main.tsx holds the placeholder's input (holdEarlyInput) before it renders the app; the composer
// takes it (takeEarlyInput) in a layout effect of its first commit, the same commit in which React
// removes the placeholder, so no key falls between the two inputs.

export type EarlyInput = {
  value: string;
  selectionStart: number;
  selectionEnd: number;
  selectionDirection: 'forward' | 'backward' | 'none';
  /** The placeholder's input had the focus when it was replaced. */
  focused: boolean;
  /** Enter (without Shift) was pressed in it on this very text: the person meant to send it. */
  send: boolean;
};

/**
 * The attribute the boot script (scripts/prerender-boot.js) and holdEarlyInput set on an Enter: the
 * text it meant to send. Blank text is not marked (nothing can be sent), and text typed after the
 * Enter is not sent by it: the app sends only what the input still holds as it was (an Enter on
 * blank text, then a sentence, once sent the sentence unasked).
 */
export const earlySendAttribute = 'data-early-send';

let held: { input: HTMLTextAreaElement; focused: () => boolean; release: () => void } | undefined;

/** Enter in the placeholder's input does not start a new line: it sends once the app has taken over. */
function onKeyDown(event: KeyboardEvent) {
  const input = event.target;
  if (!(input instanceof HTMLTextAreaElement) || !input.closest('[data-app-placeholder]')) return;
  if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
  event.preventDefault();
  if (input.value.trim()) input.setAttribute(earlySendAttribute, input.value);
}

/** Text changed after the Enter is not what it meant to send: the mark, and the line saying it will be sent, go. */
function onInput(event: Event) {
  const input = event.target;
  if (!(input instanceof HTMLTextAreaElement) || !input.hasAttribute(earlySendAttribute)) return;
  if (input.getAttribute(earlySendAttribute) !== input.value) input.removeAttribute(earlySendAttribute);
}

/** Keeps watching the placeholder's input (if the page has one) until the app's input takes it. */
export function holdEarlyInput(root: HTMLElement) {
  const input = root.querySelector<HTMLTextAreaElement>('[data-app-placeholder] textarea');
  if (!input) return;
  // Removing the focused input from the page does not always say so (no blur in every browser):
  // the focus is followed while it is in the page, and what it was when removed is what counts.
  let focused = document.activeElement === input;
  const onFocus = () => {
    focused = true;
  };
  const onBlur = () => {
    if (input.isConnected) focused = document.activeElement === input;
  };
  input.addEventListener('focus', onFocus);
  input.addEventListener('blur', onBlur);
  document.addEventListener('keydown', onKeyDown, true);
  document.addEventListener('input', onInput, true);
  held = {
    input,
    focused: () => focused,
    release: () => {
      input.removeEventListener('focus', onFocus);
      input.removeEventListener('blur', onBlur);
      document.removeEventListener('keydown', onKeyDown, true);
      document.removeEventListener('input', onInput, true);
    },
  };
}

/** What was typed into the placeholder's input, once (undefined when there was none or it is taken). */
export function takeEarlyInput(): EarlyInput | undefined {
  if (!held) return undefined;
  const { input, focused, release } = held;
  held = undefined;
  release();
  return {
    value: input.value,
    selectionStart: input.selectionStart,
    selectionEnd: input.selectionEnd,
    selectionDirection: input.selectionDirection,
    focused: focused(),
    send: input.getAttribute(earlySendAttribute) === input.value,
  };
}
