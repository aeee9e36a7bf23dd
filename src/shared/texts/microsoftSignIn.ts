import { microsoftSignedOut } from './appShell.js';

// 'Sign in with Microsoft': the buttons, the reasons a sign-in came back to /login, and
// the Settings section that links, unlinks and sets a password.
export const microsoftSignInTexts = {
  button: 'Sign in with Microsoft',
  orDivider: 'or',
  passwordLoginOff: 'Password sign-in is turned off: sign in with your Microsoft work account.',
  passwordLoginDisabled: 'Password sign-in and registration are turned off here. Sign in with Microsoft instead.',
  /** Why a sign-in returned to /login (or a link to /settings), by the code in the address. */
  errors: {
    state: 'This sign-in link is not valid or has expired. Please start again.',
    declined: 'The sign-in with Microsoft was cancelled or refused.',
    failed: 'Microsoft sign-in failed. Please try again.',
    tenant: 'Your organisation has not enabled AI Coach',
    linkedElsewhere: 'This Microsoft account is already linked to another AI Coach user.',
    notConfigured: 'Signing in with Microsoft is not switched on for this app yet',
    deprovisioned: 'Your organisation has removed your access to AI Coach.',
    noSeat: 'Every seat of your organisation is taken. Ask an admin of your organisation for a seat.',
    signedOut: microsoftSignedOut,
  },
  // Settings, Profile tab
  sectionTitle: 'Sign in with Microsoft',
  linkedAs: (username: string) => `Linked to the Microsoft account ${username}. You can sign in with it.`,
  notLinked: 'Link your Microsoft work account to sign in with it. Your email and calendar get connected too.',
  linkButton: 'Link Microsoft account',
  unlinkButton: 'Unlink',
  linkedTitle: 'Microsoft account linked',
  unlinkedTitle: 'Microsoft account unlinked',
  unlinkNeedsPassword: 'Set a password first: without the Microsoft account you would have no way to sign in.',
  unlinkPasswordLoginOff: 'Password sign-in is turned off here: the Microsoft account is the only way in and cannot be unlinked.',
  notLinkedError: 'No Microsoft account is linked',
  passwordTitle: 'Password',
  passwordNone: 'You sign in with Microsoft only. Set a password to sign in with your username too.',
  passwordSet: 'Set a password',
  passwordChange: 'Change password',
  currentPassword: 'Current password',
  newPassword: 'New password',
  passwordSaved: 'Password saved',
  currentPasswordWrong: 'The current password is not correct',
  currentPasswordRequired: 'Enter your current password',
} as const;

export type MicrosoftSignInErrorCode = keyof typeof microsoftSignInTexts.errors;
