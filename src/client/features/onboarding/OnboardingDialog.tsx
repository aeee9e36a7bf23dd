import { lazy, startTransition, Suspense, useEffect, useState } from 'react';
import { hasSeenOnboarding, markOnboardingSeen } from './onboardingData';

// The dialog's steps, form and Modal are loaded only when it shows, on a first visit; later
// visits to /app neither fetch nor run them (issue 10).
const OnboardingModal = lazy(() => import('./OnboardingModal').then((module) => ({ default: module.OnboardingModal })));

// 'Welcome to AI Coach' (the product spec's screens): shown until hasSeenOnboarding is set; closing it in
// any way (X, Escape, Complete Setup) sets the flag.
export function OnboardingDialog() {
  const [needed] = useState(() => !hasSeenOnboarding());
  const [opened, setOpened] = useState(needed);
  // Drawn after the page it covers has been, as a transition: React then renders the dialog a
  // few milliseconds at a time, not in one task of its own (issue 10: TBT on a first visit).
  const [drawn, setDrawn] = useState(false);
  useEffect(() => {
    if (needed) startTransition(() => setDrawn(true));
  }, [needed]);
  if (!needed || !drawn) return null;
  return (
    <Suspense fallback={null}>
      <OnboardingModal
        opened={opened}
        onClose={() => {
          markOnboardingSeen();
          setOpened(false);
        }}
      />
    </Suspense>
  );
}

