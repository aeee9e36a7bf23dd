import { Client, GraphError } from '@microsoft/microsoft-graph-client';
import { trimChars } from '../../../shared/trimText.js';
import type { Gate } from './concurrency.js';

// One user's Microsoft Graph client, as the mail and calendar providers both use it: the official
// client (its RetryHandler honours the Retry-After of 429 and 503 answers), every request through
// the user's gate (at most 4 at a time, Exchange's limit), paging that follows @odata.nextLink only
// back to Graph itself, and a token failure kept apart from a Graph failure.

export type GraphClientOptions = {
  /** e.g. https://graph.microsoft.com/v1.0 */
  baseUrl: string;
  accessToken: () => Promise<string>;
  gate: Gate;
};

export type Page<T> = { value?: T[]; '@odata.nextLink'?: string };

/** A Graph failure with its HTTP status (the coach reads `status`) and Graph's error code. */
export class GraphRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
  ) {
    super(message);
  }
}

export function graphSession(options: GraphClientOptions) {
  const base = new URL(options.baseUrl);
  const version = trimChars(base.pathname, '/') || 'v1.0';
  // The client wraps whatever getAccessToken throws into a GraphError; keep the original so a
  // caller can tell "sign in again" from a Graph failure.
  let tokenError: unknown = null;
  const accessToken = async () => {
    try {
      return await options.accessToken();
    } catch (error) {
      tokenError = error;
      throw error;
    }
  };
  const client = Client.initWithMiddleware({
    baseUrl: `${base.origin}/`,
    defaultVersion: version,
    // The client attaches the token only to Graph hosts or these (host name, no port).
    customHosts: new Set([base.hostname]),
    authProvider: { getAccessToken: accessToken },
  });

  /** Only links back to Graph itself are followed; anything else ends the paging. */
  function ownLink(link: string | undefined): string | undefined {
    if (!link) return undefined;
    try {
      const url = new URL(link);
      return url.origin === base.origin && url.pathname.startsWith(`/${version}/`) ? url.toString() : undefined;
    } catch {
      return undefined;
    }
  }

  /** A request through the gate; a token failure is thrown as itself, a Graph one as GraphRequestError. */
  async function call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await options.gate(work);
    } catch (error) {
      if (tokenError) {
        const original = tokenError;
        tokenError = null;
        throw original;
      }
      if (error instanceof GraphError) {
        throw new GraphRequestError(error.statusCode, error.code, error.message || `Microsoft Graph answered ${error.statusCode}`);
      }
      throw error;
    }
  }

  return { client, base, version, ownLink, call };
}
