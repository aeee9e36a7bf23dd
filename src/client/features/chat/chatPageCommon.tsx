import { useQuery } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import type { ReactNode } from 'react';
import { chatViewTexts } from '../../../shared/texts';
import { errorMessage } from '../../lib/errors';
import { trpc } from '../../lib/trpc';
import classes from './chat.module.css';

// What a new conversation (ChatPage.tsx) and a stored one (OpenChat.tsx) share.

export function errorCode(error: unknown): string | undefined {
  return error instanceof TRPCClientError ? (error.data as { code?: string } | undefined)?.code : undefined;
}

// A refused send says why when the reason is the person's to act on (a reply still running, a
// message too long); anything else is the spec's 'Failed to send message'.
export function sendFailure(error: unknown): string {
  const code = errorCode(error);
  // The server's own words where they help the person: a reply running, bad input, a spent
  // quota or limit, the database briefly away.
  const explained = ['CONFLICT', 'BAD_REQUEST', 'TOO_MANY_REQUESTS', 'SERVICE_UNAVAILABLE'];
  return code && explained.includes(code) ? errorMessage(error, chatViewTexts.sendFailed) : chatViewTexts.sendFailed;
}

export function useOfflineCoach() {
  return useQuery(trpc.chats.coachInfo.queryOptions()).data?.kind === 'offline';
}

export function ChatPageFrame(props: { children: ReactNode }) {
  return <div className={classes.page}>{props.children}</div>;
}
