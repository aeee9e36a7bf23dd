import { useLocalStorage } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { useEffect, useRef, useState } from 'react';
import { writingStyleStorageKey } from '../../../shared/constants';
import type { WritingStyle, WritingStyleResponse } from '../../../shared/schemas/writingStyle';
import { writingStyleTexts } from '../../../shared/texts';
import { errorMessage, httpErrorOf } from '../../lib/errors';
import { notify } from '../../lib/notify';
import { trpc, trpcClient } from '../../lib/trpc';

// The profile as the page and the chat panel read it: from the server, mirrored to local storage
// under writing_style_data (the product spec's entities: the profile plus lastUpdated); when the server cannot
// be read, the mirror stands in (the product spec's REST calls: the chat's read falls back to local storage).
// The mirror is removed whenever the session changes (forgetUserLocalCopies in lib/localCopies.ts),
// so the next user of this browser never sees it.

// The mirror's shape (writingStyleSchema in shared/schemas/writingStyle.ts) checked by hand: this
// hook runs on every first visit to /app, and zod is about 24 KB of gzipped JavaScript.
const isStringOrNull = (value: unknown) => value === null || typeof value === 'string';

function readMirror(value: unknown): WritingStyle | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const valid =
    isStringOrNull(v.tone) &&
    (v.toneSource === 'model' || v.toneSource === 'markers') &&
    Array.isArray(v.commonPhrases) &&
    v.commonPhrases.every((phrase) => typeof phrase === 'string') &&
    isStringOrNull(v.greeting) &&
    isStringOrNull(v.signOff) &&
    isStringOrNull(v.structure) &&
    isStringOrNull(v.length) &&
    typeof v.lastUpdated === 'string' &&
    Number.isInteger(v.emailsAnalyzed) &&
    (v.emailsAnalyzed as number) >= 0;
  if (!valid) return null;
  // Only the profile's own fields, as the schema's parse gave.
  const { tone, toneSource, commonPhrases, greeting, signOff, structure, length, lastUpdated, emailsAnalyzed } = v as WritingStyle;
  return { tone, toneSource, commonPhrases, greeting, signOff, structure, length, lastUpdated, emailsAnalyzed };
}

// The server was not reached (a tRPC client error with no server data, not an HTTP answer).
function isNetworkError(error: unknown): boolean {
  return error instanceof TRPCClientError && !error.data && !httpErrorOf(error);
}

// The product spec's error catalogue for a failed analysis on the page: a network failure 'Error' / 'Could not
// connect to the server'; an answer that is not JSON 'Analysis failed' / '{status}: {body}';
// anything that is not an answer at all (a thrown bug) 'Error' / 'An unexpected error occurred';
// otherwise the server's refusal, titled by the step that failed.
function notifyPageFailure(error: unknown, title: string, fallback: string) {
  const http = httpErrorOf(error);
  if (http) notify.error(writingStyleTexts.analysisFailedTitle, http.message);
  else if (!(error instanceof TRPCClientError)) notify.error(writingStyleTexts.errorTitle, writingStyleTexts.unexpected);
  else if (isNetworkError(error)) notify.error(writingStyleTexts.errorTitle, writingStyleTexts.serverUnreachable);
  else notify.error(title, errorMessage(error, fallback));
}

export function useWritingStyle() {
  const query = useQuery(trpc.writingStyle.get.queryOptions());
  const [mirror, setMirror, removeMirror] = useLocalStorage<unknown>({ key: writingStyleStorageKey, defaultValue: null, getInitialValueInEffect: false });

  useEffect(() => {
    if (!query.data) return;
    if (query.data.writingStyle) setMirror(query.data.writingStyle);
    else removeMirror();
  }, [query.data, setMirror, removeMirror]);

  const toasted = useRef(false);
  useEffect(() => {
    if (!query.isError || toasted.current) return;
    toasted.current = true;
    if (isNetworkError(query.error)) notify.error(writingStyleTexts.errorTitle, writingStyleTexts.serverUnreachable);
    else notify.error(writingStyleTexts.errorTitle, errorMessage(query.error, writingStyleTexts.loadFailed));
  }, [query.isError, query.error]);

  const writingStyle = query.data ? query.data.writingStyle : query.isError ? readMirror(mirror) : null;
  return {
    loading: query.isPending,
    writingStyle,
    mailConnected: query.data?.mailConnected ?? false,
  };
}

export type AnalysisToasts = 'page' | 'refreshed' | 'updated';

/**
 * The analysis of the product spec's states and transitions: check the sent email count, stop below 5, run the analysis,
 * keep the profile (server, cache and mirror). Toasts as the product spec's error catalogue says for each caller.
 */
export function useAnalyzeWritingStyle() {
  const queryClient = useQueryClient();
  const [running, setRunning] = useState(false);

  const analyze = async (toasts: AnalysisToasts = 'page'): Promise<boolean> => {
    if (running) return false;
    setRunning(true);
    const failRefresh = () => notify.error(writingStyleTexts.refreshFailedTitle, writingStyleTexts.refreshFailedBody);
    try {
      let count: number;
      try {
        count = (await trpcClient.writingStyle.sentEmails.query()).count;
      } catch (error) {
        if (toasts !== 'page') failRefresh();
        else notifyPageFailure(error, writingStyleTexts.emailErrorTitle, writingStyleTexts.sentEmailsFailed);
        return false;
      }
      if (count < 5) {
        notify.error(writingStyleTexts.notEnoughTitle, writingStyleTexts.notEnoughBody);
        return false;
      }
      if (toasts === 'page') notify.info(writingStyleTexts.startedTitle, writingStyleTexts.startedBody(count));
      try {
        const result = await trpcClient.writingStyle.analyze.mutate();
        queryClient.setQueryData(trpc.writingStyle.get.queryKey(), (previous: WritingStyleResponse | undefined) => ({
          success: true as const,
          hasWritingStyle: true,
          writingStyle: result.writingStyle,
          lastUpdated: result.writingStyle.lastUpdated,
          message: writingStyleTexts.profileFound,
          mailConnected: previous?.mailConnected ?? true,
        }));
        if (toasts === 'page') notify.success(writingStyleTexts.completeTitle, writingStyleTexts.completeBody(result.emailsAnalyzed));
        else notify.success(toasts === 'refreshed' ? writingStyleTexts.refreshedTitle : writingStyleTexts.updatedTitle);
        return true;
      } catch (error) {
        if (toasts !== 'page') failRefresh();
        else notifyPageFailure(error, writingStyleTexts.failedTitle, writingStyleTexts.failedBody);
        return false;
      }
    } finally {
      setRunning(false);
    }
  };

  return { analyze, running };
}

/** 'Nov 23, 2026' (short month, day, year), or 'Never'. */
export function formatLastUpdated(iso: string | null | undefined): string {
  if (!iso) return writingStyleTexts.never;
  return new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
}
