import { lazy, startTransition, Suspense, useEffect, useState } from 'react';
import { hasSeenOnboarding, markOnboardingSeen } from './onboardingData';

// The dialog's steps, form and Modal are loaded only when it shows, on a first visit; later
// visits to /app neither fetch nor run them.
const OnboardingModal = lazy(() => import('./OnboardingModal').then((module) => ({ default: module.OnboardingModal })));

/** How long typing must have paused before the dialog takes the focus from the field typed into. */
const typingPauseMs = 2000;

/** The text field that has the focus and holds text: someone is typing into it. */
function fieldTypedInto() {
  const element = document.activeElement;
  const textField = element instanceof HTMLTextAreaElement || (element instanceof HTMLInputElement && ['text', 'search', 'email', 'url', 'tel'].includes(element.type));
  return textField && element.value !== '' ? element : null;
}

/**
 * Whether the dialog may open and take the focus: at once, unless someone is typing (a first
 * visitor who started in the placeholder's input before the app took over goes on
 * typing into the app's). Then once the typing has paused or the field has lost the focus, so that
 * no key of a sentence lands in the dialog.
 */
function useNotTyping(enabled: boolean) {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (!enabled || ready) return;
    const field = fieldTypedInto();
    if (!field) {
      setReady(true);
      return;
    }
    let timer = window.setTimeout(() => setReady(true), typingPauseMs);
    const onInput = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => setReady(true), typingPauseMs);
    };
    const onFocusOut = () => setReady(true);
    field.addEventListener('input', onInput);
    field.addEventListener('focusout', onFocusOut);
    return () => {
      window.clearTimeout(timer);
      field.removeEventListener('input', onInput);
      field.removeEventListener('focusout', onFocusOut);
    };
  }, [enabled, ready]);
  return ready;
}

// 'Welcome to AI Coach' (the product spec's screens): shown until hasSeenOnboarding is set; closing it in
// any way (X, Escape, Complete Setup) sets the flag.
export function OnboardingDialog() {
  const [needed] = useState(() => !hasSeenOnboarding());
  const [opened, setOpened] = useState(needed);
  // Drawn after the page it covers has been, as a transition: React then renders the dialog a
  // few milliseconds at a time, not in one task of its own (Total Blocking Time on a first visit).
  const [drawn, setDrawn] = useState(false);
  useEffect(() => {
    if (needed) startTransition(() => setDrawn(true));
  }, [needed]);
  const notTyping = useNotTyping(needed && drawn);
  if (!needed || !drawn) return null;
  return (
    <Suspense fallback={null}>
      <OnboardingModal
        opened={opened && notTyping}
        onClose={() => {
          markOnboardingSeen();
          setOpened(false);
        }}
      />
    </Suspense>
  );
}
