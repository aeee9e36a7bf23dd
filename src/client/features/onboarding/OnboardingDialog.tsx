// Interface placeholder: the onboarding work replaces this with the real dialog.
export function OnboardingDialog() {
  return null;
}
