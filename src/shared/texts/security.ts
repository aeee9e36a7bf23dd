import type { SecurityEventKind } from '../schemas/security.js';

// Settings, Security: the account's recent security activity.
export const securityTexts = {
  heading: 'Recent security activity',
  description: 'Sign-ins, keys, exports and connections on your account, newest first. If something here was not you, change your password and sign out other sessions.',
  empty: 'No security activity yet.',
  loadFailed: 'Could not load your security activity.',
  loadMore: 'Show older activity',
  unknownAddress: 'unknown address',
  badCursor: 'The cursor must be the nextCursor of an earlier page',
  badLimit: 'The limit must be a whole number from 1 to 100',
  kinds: {
    sign_in: 'Signed in',
    sign_in_failed: 'Failed sign-in attempt',
    sign_out: 'Signed out',
    session_ended: 'Session ended',
    password_changed: 'Password changed',
    api_key_created: 'API key created',
    api_key_revoked: 'API key revoked',
    data_exported: 'Data exported',
    microsoft_connected: 'Microsoft account connected',
    microsoft_disconnected: 'Microsoft account disconnected',
    phone_verified: 'Phone number verified',
    microsoft_linked: 'Microsoft sign-in linked',
    microsoft_unlinked: 'Microsoft sign-in unlinked',
    phone_pin_set: 'Phone PIN set',
    phone_pin_removed: 'Phone PIN removed',
  } satisfies Record<SecurityEventKind, string>,
} as const;
