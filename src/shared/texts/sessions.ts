// Settings, active sessions.
export const sessionTexts = {
  heading: 'Active sessions',
  description: 'The browsers and devices signed in to your account. Sign out any you do not recognise.',
  thisDevice: 'This device',
  lastSeen: (when: string) => `Last active ${when}`,
  signedInAt: (when: string) => `Signed in ${when}`,
  unknownDevice: 'Unknown device',
  signOut: 'Sign out',
  signOutOthers: 'Sign out all other sessions',
  signedOutOthers: (count: number) => (count === 1 ? 'Signed out 1 other session' : `Signed out ${count} other sessions`),
  signedOutOne: 'Session signed out',
  none: 'No other sessions.',
  loadFailed: 'Could not load your sessions.',
  notFound: 'Session not found',
  signedOut: 'You have been signed out.',
} as const;
