import type { Config } from '../../config.js';
import { createGateRegistry } from '../../providers/microsoft/concurrency.js';
import { createIdentity, type Identity } from '../../providers/microsoft/identity.js';
import { createCalendarCache, type CalendarCache } from '../meetings/index.js';
import { createTokenCipher, resolveTokenKey, type TokenCipher } from './tokenCipher.js';

/** Exchange Online's limit of concurrent requests per mailbox. */
export const mailboxConcurrency = 4;

// What the Microsoft feature needs, built once per server.
export type MicrosoftDeps = {
  cipher: TokenCipher;
  /** null when MICROSOFT_CLIENT_ID is not set: sign-in is not configured (a pasted token works). */
  identity: Identity | null;
  gates: ReturnType<typeof createGateRegistry>;
  /** The refresh in flight per user and service ("userId:service"), shared by concurrent requests. */
  refreshes: Map<string, Promise<string>>;
  /** Calendar windows read from Graph, per user (features/meetings/calendar.ts). */
  calendarCache: CalendarCache;
};

export function createMicrosoftDeps(config: Config): MicrosoftDeps {
  const ms = config.microsoft;
  return {
    cipher: createTokenCipher(resolveTokenKey(ms.tokenKey, config.dataDir), ms.previousTokenKeys),
    identity: ms.clientId ? createIdentity({ ...ms, clientId: ms.clientId }) : null,
    gates: createGateRegistry(mailboxConcurrency),
    refreshes: new Map(),
    calendarCache: createCalendarCache(),
  };
}
