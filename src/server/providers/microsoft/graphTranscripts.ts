import { ResponseType } from '@microsoft/microsoft-graph-client';
import { graphSession, type GraphClientOptions, type Page } from './graphClient.js';

// Microsoft Graph for one user's Teams meetings and their transcripts (delegated
// OnlineMeetings.Read and OnlineMeetingTranscript.Read.All), through the same client and gate as
// the calendar and the mail. The meeting of a calendar event is found by its join URL; each
// transcript's text is read as WebVTT.

export type GraphOnlineMeeting = { id: string; subject: string | null };
export type GraphTranscript = { id: string; createdDateTime: string | null; endDateTime: string | null };

type RawMeeting = { id: string; subject?: string | null };
type RawTranscript = { id: string; createdDateTime?: string | null; endDateTime?: string | null };

/** An OData string literal: single quotes doubled. */
const odataString = (value: string) => `'${value.replace(/'/g, "''")}'`;

/** The most transcripts read for one meeting (a meeting restarted many times still has few). */
const maxTranscripts = 20;

export function graphTranscripts(options: GraphClientOptions) {
  const { client, ownLink, call } = graphSession(options);
  return {
    /** The signed-in account's display name: how Teams names the user in a transcript. */
    async displayName(): Promise<string | null> {
      const me = await call(() => client.api('/me').select('displayName').get() as Promise<{ displayName?: string | null }>);
      return me.displayName?.trim() || null;
    },

    /** The online meeting whose join URL this is, or null when the account has none by that URL. */
    async meetingByJoinUrl(joinUrl: string): Promise<GraphOnlineMeeting | null> {
      const page = await call(() => client.api('/me/onlineMeetings').filter(`JoinWebUrl eq ${odataString(joinUrl)}`).get() as Promise<Page<RawMeeting>>);
      const found = page.value?.[0];
      return found ? { id: found.id, subject: found.subject ?? null } : null;
    },

    /** The meeting's transcripts (one per time transcription was started), oldest first. */
    async transcripts(meetingId: string): Promise<GraphTranscript[]> {
      const items: RawTranscript[] = [];
      let page = await call(() => client.api(`/me/onlineMeetings/${encodeURIComponent(meetingId)}/transcripts`).get() as Promise<Page<RawTranscript>>);
      for (;;) {
        items.push(...(page.value ?? []));
        const next = ownLink(page['@odata.nextLink']);
        if (!next || items.length >= maxTranscripts) break;
        page = await call(() => client.api(next).get() as Promise<Page<RawTranscript>>);
      }
      return items
        .slice(0, maxTranscripts)
        .map((t) => ({ id: t.id, createdDateTime: t.createdDateTime ?? null, endDateTime: t.endDateTime ?? null }))
        .sort((a, b) => (a.createdDateTime ?? '').localeCompare(b.createdDateTime ?? ''));
    },

    /** A transcript's text as WebVTT. */
    async transcriptContent(meetingId: string, transcriptId: string): Promise<string> {
      const path = `/me/onlineMeetings/${encodeURIComponent(meetingId)}/transcripts/${encodeURIComponent(transcriptId)}/content`;
      const text = await call(() => client.api(path).query({ $format: 'text/vtt' }).responseType(ResponseType.TEXT).get() as Promise<string>);
      return typeof text === 'string' ? text : String(text ?? '');
    },
  };
}

export type GraphTranscripts = ReturnType<typeof graphTranscripts>;
