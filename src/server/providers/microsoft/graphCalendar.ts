import type { Meeting } from '../../../shared/meeting.js';
import { graphSession, type GraphClientOptions, type Page } from './graphClient.js';

// Microsoft Graph for one user's calendar, through the official client like graphMail (which
// sends and searches the mail):
// its RetryHandler honours Retry-After on 429 and 503, every request passes the mailbox's gate,
// and paging follows @odata.nextLink only back to Graph itself. Times come back in the time zone
// asked with `Prefer: outlook.timezone`.

export type GraphDateTime = { dateTime: string; timeZone: string };
/** An event as Graph gives it: the app's meeting, its times still in Graph's own form. */
export type GraphEvent = Omit<Meeting, 'start' | 'end'> & {
  start: GraphDateTime;
  end: GraphDateTime;
  isCancelled: boolean;
  isOrganizer: boolean;
  /** An occurrence (or a changed occurrence) of a recurring series. */
  isRecurring: boolean;
};
export type GraphEventWithBody = GraphEvent & { body: { contentType: string; content: string } };

export type GraphSubscription = { id: string; expirationDateTime: string };

export type GraphCalendarOptions = GraphClientOptions;

const eventFields = 'id,subject,start,end,isCancelled,isOrganizer,organizer,attendees,location,isOnlineMeeting,onlineMeeting,bodyPreview,type,seriesMasterId';
const pageSize = 50;
/** The most events read for one window (14 days of a busy calendar fit well inside). */
const maxEvents = 500;

type RawEmail = { emailAddress?: { name?: string | null; address?: string | null } | null } | null | undefined;
type RawEvent = {
  id: string;
  subject?: string | null;
  start?: GraphDateTime | null;
  end?: GraphDateTime | null;
  isCancelled?: boolean | null;
  isOrganizer?: boolean | null;
  organizer?: RawEmail;
  attendees?: Array<RawEmail & { status?: { response?: string | null } | null }> | null;
  location?: { displayName?: string | null } | null;
  isOnlineMeeting?: boolean | null;
  onlineMeeting?: { joinUrl?: string | null } | null;
  bodyPreview?: string | null;
  type?: string | null;
  seriesMasterId?: string | null;
  body?: { contentType?: string | null; content?: string | null } | null;
};

export function graphCalendar(options: GraphCalendarOptions) {
  const { client, ownLink, call } = graphSession(options);

  const zoneHeader = (timeZone: string) => ({ Prefer: `outlook.timezone="${timeZone}"` });

  return {
    /**
     * The events from `start` to `end` with recurring series expanded into their occurrences
     * (that is what calendarView does), across pages, cancelled ones left out, ordered by start.
     */
    async calendarView(params: { start: Date; end: Date; timeZone: string }): Promise<GraphEvent[]> {
      const headers = zoneHeader(params.timeZone);
      const items: RawEvent[] = [];
      let page = await call(() =>
        client
          .api('/me/calendarView')
          .headers(headers)
          .query({
            startDateTime: params.start.toISOString(),
            endDateTime: params.end.toISOString(),
            $select: eventFields,
            $orderby: 'start/dateTime',
            $top: String(pageSize),
          })
          .get() as Promise<Page<RawEvent>>,
      );
      for (;;) {
        items.push(...(page.value ?? []));
        const next = ownLink(page['@odata.nextLink']);
        if (items.length >= maxEvents || !next) break;
        page = await call(() => client.api(next).headers(headers).get() as Promise<Page<RawEvent>>);
      }
      return items.map(normaliseEvent).filter((event) => !event.isCancelled);
    },

    /** One event of the user's calendar with its body (html or text); Graph answers 404 for another's. */
    async event(id: string, params: { timeZone: string; bodyType: 'html' | 'text' }): Promise<GraphEventWithBody> {
      const raw = (await call(() =>
        client
          .api(`/me/events/${encodeURIComponent(id)}`)
          .headers({ Prefer: `outlook.timezone="${params.timeZone}", outlook.body-content-type="${params.bodyType}"` })
          .select(`${eventFields},body`)
          .get(),
      )) as RawEvent;
      return { ...normaliseEvent(raw), body: { contentType: raw.body?.contentType ?? params.bodyType, content: raw.body?.content ?? '' } };
    },

    /** Replaces the event's body (HTML); Graph sends the attendees an update. */
    async updateEventBody(id: string, html: string): Promise<void> {
      await call(() => client.api(`/me/events/${encodeURIComponent(id)}`).patch({ body: { contentType: 'HTML', content: html } }));
    },

    /** A change-notification subscription for the user's events. */
    async subscribe(params: { notificationUrl: string; clientState: string; expiresAt: Date }): Promise<GraphSubscription> {
      const created = (await call(() =>
        client.api('/subscriptions').post({
          changeType: 'created,updated,deleted',
          notificationUrl: params.notificationUrl,
          resource: 'me/events',
          expirationDateTime: params.expiresAt.toISOString(),
          clientState: params.clientState,
        }),
      )) as { id: string; expirationDateTime: string };
      return { id: created.id, expirationDateTime: created.expirationDateTime };
    },

    async renewSubscription(id: string, expiresAt: Date): Promise<void> {
      await call(() => client.api(`/subscriptions/${encodeURIComponent(id)}`).patch({ expirationDateTime: expiresAt.toISOString() }));
    },

    async deleteSubscription(id: string): Promise<void> {
      await call(() => client.api(`/subscriptions/${encodeURIComponent(id)}`).delete());
    },
  };
}

export type GraphCalendar = ReturnType<typeof graphCalendar>;

function person(raw: RawEmail): { name: string; email: string } {
  return { name: raw?.emailAddress?.name ?? '', email: raw?.emailAddress?.address ?? '' };
}

function normaliseEvent(raw: RawEvent): GraphEvent {
  return {
    id: raw.id,
    subject: raw.subject ?? '',
    start: raw.start ?? { dateTime: '', timeZone: 'UTC' },
    end: raw.end ?? { dateTime: '', timeZone: 'UTC' },
    isCancelled: Boolean(raw.isCancelled),
    isOrganizer: Boolean(raw.isOrganizer),
    organizer: person(raw.organizer),
    attendees: (raw.attendees ?? []).map((a) => ({ ...person(a), response: a?.status?.response ?? 'none' })),
    location: raw.location?.displayName ?? '',
    isOnline: Boolean(raw.isOnlineMeeting),
    joinUrl: raw.onlineMeeting?.joinUrl ?? null,
    bodyPreview: raw.bodyPreview ?? '',
    isRecurring: raw.type === 'occurrence' || raw.type === 'exception' || Boolean(raw.seriesMasterId),
  };
}
