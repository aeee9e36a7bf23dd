import crypto from 'node:crypto';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { testTlsOptions } from '../tls.js';
import { addresses, parseMime } from './mime.js';

// A local https server speaking the slice of Microsoft Graph v1.0 the app uses, per access token:
// /me, /me/messages, /me/mailFolders (with child folders, well-known names inbox and sentitems),
// messages of a folder, folder creation, move (the moved message gets a new id, as in Exchange),
// $batch (at most 20), OData paging ($top, $skip, @odata.nextLink), $select, the Prefer
// outlook.body-content-type header, 401 for unknown tokens, and 429/503 with Retry-After on demand
// (for whole requests, or for chosen requests inside a $batch, as Exchange answers them), and on
// demand @odata.nextLinks pointing at another host (which a client must never follow).
// Calendars: /me/calendarView expands recurring series into occurrences (each with its
// own id), keeps cancelled occurrences (isCancelled: true, as Graph does), pages, and writes times
// in the zone of `Prefer: outlook.timezone`; /me/events/{id} GET and PATCH (the body); /me/sendMail
// in its JSON form and in its MIME form (a base64 RFC 5322 message as a text/plain body, whose
// headers are recorded);
// $search="participants:..." on /me/messages; /subscriptions with Graph's validation handshake
// (a POST to notificationUrl?validationToken=... that must echo the token) and notify() to deliver
// change notifications. Teams meetings: /me/onlineMeetings?$filter=JoinWebUrl eq '...' finds the
// online meeting of an online event by its join URL, /me/onlineMeetings/{id}/transcripts lists the
// transcripts planted with addTranscript, and .../transcripts/{tid}/content?$format=text/vtt
// answers one as text/vtt; denyTranscripts() makes those paths answer 403 as Graph does for a
// token without OnlineMeetings.Read or OnlineMeetingTranscript.Read.All.
// Requests are recorded with their query, Prefer header and JSON body.

export type SeedMessage = {
  subject?: string;
  fromName?: string;
  fromAddress?: string;
  receivedDateTime?: string;
  importance?: 'low' | 'normal' | 'high';
  hasAttachments?: boolean;
  body?: string;
  isRead?: boolean;
};
export type SeedSentItem = { subject?: string; body: string; to?: string[]; sentDateTime?: string };
export type SeedPerson = { name: string; email: string; response?: 'none' | 'accepted' | 'declined' | 'tentativelyAccepted' | 'organizer' };
export type SeedEvent = {
  subject: string;
  /** ISO 8601 instants (UTC or with an offset). */
  start: string;
  end: string;
  /** Default: the mailbox's owner, who is then the organizer. */
  organizer?: SeedPerson;
  attendees?: SeedPerson[];
  location?: string;
  isOnline?: boolean;
  /** HTML body of the invite. */
  body?: string;
  isCancelled?: boolean;
  /** A series: `count` occurrences every `interval` days (daily) or weeks (weekly). */
  recurrence?: { type: 'daily' | 'weekly'; interval?: number; count: number };
  /** Occurrence indexes (0-based) of a series that are cancelled. */
  cancelledOccurrences?: number[];
};
type StoredEvent = Required<Omit<SeedEvent, 'recurrence' | 'organizer' | 'cancelledOccurrences'>> & {
  id: string;
  organizer: SeedPerson;
  recurrence: SeedEvent['recurrence'] | null;
  cancelledOccurrences: number[];
};
/** One occurrence (or a single event) as calendarView answers it. */
export type FakeOccurrence = { id: string; seriesId: string; subject: string; start: Date; end: Date; isCancelled: boolean };
export type FakeSentMail = {
  subject: string;
  /** The HTML part (or the only body). */
  body: string;
  contentType: string;
  to: string[];
  /** Sent as MIME: its headers (names lower-cased) and its plain-text part; JSON: {} and null. */
  headers: Record<string, string>;
  text: string | null;
};
export type FakeSubscription = { id: string; resource: string; changeType: string; notificationUrl: string; clientState: string; expirationDateTime: string; mailbox: FakeMailbox };

type StoredMessage = {
  id: string;
  folderId: string;
  subject: string;
  from: { emailAddress: { name: string; address: string } };
  toRecipients: Array<{ emailAddress: { name: string; address: string } }>;
  receivedDateTime: string;
  sentDateTime: string;
  importance: string;
  hasAttachments: boolean;
  body: string;
  isRead: boolean;
};
type StoredFolder = { id: string; displayName: string; parentFolderId: string; wellKnownName?: string };

export type FakeFolder = { id: string; displayName: string; parentFolderId: string };

/** A mailbox's seeding and inspection handle (the tests' API). */
export type FakeMailbox = {
  user: { displayName: string; mail: string };
  inboxId: string;
  sentItemsId: string;
  /** Adds messages to the inbox (or to folderId); answers their ids, in the given order. */
  addMessages(messages: SeedMessage[], folderId?: string): string[];
  /** Adds sent items with plain-text bodies. */
  addSentItems(items: SeedSentItem[]): string[];
  /** Adds a folder under the root (or under parentFolderId). */
  addFolder(displayName: string, parentFolderId?: string): FakeFolder;
  folders(): FakeFolder[];
  /** The ids of the messages now in a folder. */
  messageIdsIn(folderId: string): string[];
  messageSubjectsIn(folderId: string): string[];
  /** Adds calendar events (a series when `recurrence` is set); answers their (series) ids. */
  addEvents(events: SeedEvent[]): string[];
  /** The occurrences of a series (or the single event) as calendarView answers them. */
  occurrencesOf(eventId: string): FakeOccurrence[];
  /** The current HTML body of an event or occurrence. */
  eventBody(eventId: string): string | null;
  /** Messages sent with /me/sendMail. */
  sentMail: FakeSentMail[];
  /** Plants a transcript (WebVTT) of an online event's meeting (an occurrence id for a series); answers its id. */
  addTranscript(eventId: string, vtt: string, createdDateTime?: string): string;
  /** The token lacks the meetings permission ('meetings': OnlineMeetings.Read) or the transcripts one; null: both allowed. */
  denyTranscripts(missing: 'meetings' | 'transcripts' | null): void;
};

export type FakeGraphRequest = {
  method: string;
  path: string;
  authorized: boolean;
  status: number;
  query: Record<string, string>;
  /** The Prefer header, if any. */
  prefer: string | null;
  /** The JSON body, if any. */
  body: unknown;
};
/** One request inside a $batch, as answered. */
export type FakeGraphBatchItem = { method: string; path: string; status: number };

export type FakeGraph = {
  /** https://localhost:PORT/v1.0 — what MICROSOFT_GRAPH_BASE_URL points at. */
  url: string;
  /** A new mailbox reached with these access tokens. */
  addMailbox(options: { tokens: string[]; displayName?: string; mail?: string }): FakeMailbox;
  /** Lets another token reach a mailbox (as after a refresh); revoke makes a token answer 401. */
  grant(token: string, mailbox: FakeMailbox): void;
  revoke(token: string): void;
  /** The next `times` requests answer `status` with Retry-After (seconds). */
  throttle(options: { status: 429 | 503; times: number; retryAfterSeconds?: number }): void;
  /**
   * Inside a $batch, the move of each of these messages answers `status` with Retry-After (as
   * Graph does: an inner response with headers { 'Retry-After': '1' } and an error body) its next
   * `times` times (Infinity: always); the other requests of the batch run as usual.
   */
  throttleInBatch(options: { messageIds: string[]; times: number; status?: 429 | 503; retryAfterSeconds?: number }): void;
  /** Pages that have more answer an @odata.nextLink on this origin (e.g. https://127.0.0.1:PORT) instead of the fake's own; null: its own. */
  setNextLinkOrigin(origin: string | null): void;
  /** Largest page served whatever $top asks (Graph's own cap is 1000 for messages). */
  setMaxPageSize(size: number): void;
  /** A pause in every answer, so concurrency can be observed. */
  setDelayMs(ms: number): void;
  /** Requests seen, without any token. */
  requests: FakeGraphRequest[];
  /** Requests seen inside $batch requests. */
  batchItems: FakeGraphBatchItem[];
  /** Highest number of requests in flight at once for one mailbox. */
  maxConcurrentPerMailbox(): number;
  /** Change-notification subscriptions alive now. */
  subscriptions(): FakeSubscription[];
  /**
   * Delivers a change notification for the mailbox's events to each of its subscriptions (with
   * their clientState, or `clientState` to forge one); answers the HTTP statuses the app gave.
   */
  notify(mailbox: FakeMailbox, options?: { clientState?: string; changeType?: string }): Promise<number[]>;
  /** Where the fake actually delivers a notificationUrl (tests map PUBLIC_URL to the test server). */
  setNotificationTarget(rewrite: ((url: string) => string) | null): void;
  reset(): void;
  close(): Promise<void>;
};

const newId = (prefix = 'AAMkAG') => `${prefix}${crypto.randomBytes(18).toString('base64url')}=`;
const graphError = (status: number, code: string, message: string) => ({ status, body: { error: { code, message } } });

class MailboxState implements FakeMailbox {
  readonly folderMap = new Map<string, StoredFolder>();
  readonly messages = new Map<string, StoredMessage>();
  readonly rootId = newId('AAMkRoot');
  readonly inboxId: string;
  readonly sentItemsId: string;
  readonly events = new Map<string, StoredEvent>();
  /** Bodies written with PATCH, by event or occurrence id. */
  readonly bodies = new Map<string, string>();
  readonly sentMail: FakeSentMail[] = [];
  /** Transcripts by the occurrence id of their online event. */
  readonly transcripts = new Map<string, Array<{ id: string; createdDateTime: string; content: string }>>();
  transcriptsDenied: 'meetings' | 'transcripts' | null = null;
  inFlight = 0;
  clock = Date.UTC(2026, 10, 20, 9, 0, 0);

  constructor(readonly user: { displayName: string; mail: string }) {
    this.inboxId = this.addFolder('Inbox', undefined, 'inbox').id;
    this.sentItemsId = this.addFolder('Sent Items', undefined, 'sentitems').id;
    this.addFolder('Drafts', undefined, 'drafts');
    this.addFolder('Deleted Items', undefined, 'deleteditems');
  }

  private tick() {
    this.clock += 60_000;
    return new Date(this.clock).toISOString().replace('.000Z', 'Z');
  }

  addFolder(displayName: string, parentFolderId?: string, wellKnownName?: string): FakeFolder {
    const folder: StoredFolder = { id: newId('AAMkFolder'), displayName, parentFolderId: parentFolderId ?? this.rootId, ...(wellKnownName ? { wellKnownName } : {}) };
    this.folderMap.set(folder.id, folder);
    return { id: folder.id, displayName, parentFolderId: folder.parentFolderId };
  }

  addMessages(messages: SeedMessage[], folderId = this.inboxId): string[] {
    return messages.map((m) => {
      const id = newId();
      const at = m.receivedDateTime ?? this.tick();
      this.messages.set(id, {
        id,
        folderId,
        subject: m.subject ?? '',
        from: { emailAddress: { name: m.fromName ?? 'Sender', address: m.fromAddress ?? 'sender@example.com' } },
        toRecipients: [{ emailAddress: { name: this.user.displayName, address: this.user.mail } }],
        receivedDateTime: at,
        sentDateTime: at,
        importance: m.importance ?? 'normal',
        hasAttachments: m.hasAttachments ?? false,
        body: m.body ?? '',
        isRead: m.isRead ?? false,
      });
      return id;
    });
  }

  addSentItems(items: SeedSentItem[]): string[] {
    return items.map((item) => {
      const id = newId();
      const at = item.sentDateTime ?? this.tick();
      this.messages.set(id, {
        id,
        folderId: this.sentItemsId,
        subject: item.subject ?? '',
        from: { emailAddress: { name: this.user.displayName, address: this.user.mail } },
        toRecipients: (item.to ?? ['colleague@example.com']).map((address) => ({ emailAddress: { name: address, address } })),
        receivedDateTime: at,
        sentDateTime: at,
        importance: 'normal',
        hasAttachments: false,
        body: item.body,
        isRead: true,
      });
      return id;
    });
  }

  folders(): FakeFolder[] {
    return [...this.folderMap.values()].map(({ id, displayName, parentFolderId }) => ({ id, displayName, parentFolderId }));
  }

  messageIdsIn(folderId: string): string[] {
    return [...this.messages.values()].filter((m) => m.folderId === folderId).map((m) => m.id);
  }

  messageSubjectsIn(folderId: string): string[] {
    return [...this.messages.values()].filter((m) => m.folderId === folderId).map((m) => m.subject);
  }

  addEvents(events: SeedEvent[]): string[] {
    return events.map((e) => {
      const id = newId('AAMkEvent');
      this.events.set(id, {
        id,
        subject: e.subject,
        start: e.start,
        end: e.end,
        organizer: e.organizer ?? { name: this.user.displayName, email: this.user.mail, response: 'organizer' },
        attendees: e.attendees ?? [],
        location: e.location ?? '',
        isOnline: e.isOnline ?? false,
        body: e.body ?? '',
        isCancelled: e.isCancelled ?? false,
        recurrence: e.recurrence ?? null,
        cancelledOccurrences: e.cancelledOccurrences ?? [],
      });
      return id;
    });
  }

  occurrencesOf(eventId: string): FakeOccurrence[] {
    const event = this.events.get(eventId);
    if (!event) return [];
    const start = Date.parse(event.start);
    const length = Date.parse(event.end) - start;
    if (!event.recurrence) return [{ id: event.id, seriesId: event.id, subject: event.subject, start: new Date(start), end: new Date(start + length), isCancelled: event.isCancelled }];
    const step = (event.recurrence.type === 'weekly' ? 7 : 1) * (event.recurrence.interval ?? 1) * 86_400_000;
    return Array.from({ length: event.recurrence.count }, (_, i) => ({
      id: `${event.id.slice(0, -1)}OCC${i}=`,
      seriesId: event.id,
      subject: event.subject,
      start: new Date(start + i * step),
      end: new Date(start + i * step + length),
      isCancelled: event.isCancelled || event.cancelledOccurrences.includes(i),
    }));
  }

  /** An event or occurrence by id, with the series it belongs to. */
  findOccurrence(id: string): { event: StoredEvent; occurrence: FakeOccurrence } | undefined {
    for (const event of this.events.values()) {
      const occurrence = this.occurrencesOf(event.id).find((o) => o.id === id);
      if (occurrence) return { event, occurrence };
    }
    return undefined;
  }

  addTranscript(eventId: string, vtt: string, createdDateTime?: string): string {
    const found = this.findOccurrence(eventId);
    if (!found?.event.isOnline) throw new Error('a transcript needs an online event');
    const list = this.transcripts.get(found.occurrence.id) ?? [];
    const id = `MSMjMCMj${crypto.randomBytes(12).toString('base64url')}`;
    list.push({ id, createdDateTime: createdDateTime ?? found.occurrence.start.toISOString(), content: vtt });
    this.transcripts.set(found.occurrence.id, list);
    return id;
  }

  denyTranscripts(missing: 'meetings' | 'transcripts' | null) {
    this.transcriptsDenied = missing;
  }

  eventBody(eventId: string): string | null {
    const found = this.findOccurrence(eventId);
    if (!found) return null;
    return this.bodies.get(eventId) ?? this.bodies.get(found.event.id) ?? found.event.body;
  }

  resolveFolder(idOrName: string): StoredFolder | undefined {
    const byId = this.folderMap.get(idOrName);
    if (byId) return byId;
    const name = idOrName.toLowerCase();
    return [...this.folderMap.values()].find((f) => f.wellKnownName === name);
  }

  folderView(folder: StoredFolder) {
    const inside = [...this.messages.values()].filter((m) => m.folderId === folder.id);
    return {
      id: folder.id,
      displayName: folder.displayName,
      parentFolderId: folder.parentFolderId,
      childFolderCount: [...this.folderMap.values()].filter((f) => f.parentFolderId === folder.id).length,
      unreadItemCount: inside.filter((m) => !m.isRead).length,
      totalItemCount: inside.length,
      isHidden: false,
    };
  }
}

function messageView(m: StoredMessage, textBodies: boolean) {
  const preview = m.body.replace(/\s+/g, ' ').trim().slice(0, 255);
  const escaped = m.body.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\n/g, '<br>');
  return {
    '@odata.etag': `W/"${m.id.slice(-8)}"`,
    id: m.id,
    createdDateTime: m.receivedDateTime,
    receivedDateTime: m.receivedDateTime,
    sentDateTime: m.sentDateTime,
    hasAttachments: m.hasAttachments,
    subject: m.subject,
    bodyPreview: preview,
    importance: m.importance,
    parentFolderId: m.folderId,
    isRead: m.isRead,
    body: textBodies ? { contentType: 'text', content: m.body } : { contentType: 'html', content: `<html><body>${escaped}</body></html>` },
    from: m.from,
    sender: m.from,
    toRecipients: m.toRecipients,
  };
}

/** Wall time of an instant in an IANA zone, as Graph writes it (7 fractional digits, no offset). */
function wallTime(at: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}.0000000`;
}

/** A text/plain request body (sendMail's MIME form); any other body is JSON. */
class MimeBody {
  constructor(readonly text: string) {}
}

function plainText(html: string): string {
  return html.replace(/<br\s*\/?>/gi, '\n').replace(/<\/(p|div|li|h\d)>/gi, '\n').replace(/<[^>]*>/g, '').replace(/&nbsp;/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

function eventView(box: MailboxState, event: StoredEvent, occurrence: FakeOccurrence, timeZone: string, textBodies: boolean) {
  const body = box.bodies.get(occurrence.id) ?? box.bodies.get(event.id) ?? event.body;
  const organizerIsMe = event.organizer.email.toLowerCase() === box.user.mail.toLowerCase();
  return {
    '@odata.etag': `W/"${occurrence.id.slice(-8)}"`,
    id: occurrence.id,
    subject: occurrence.subject,
    bodyPreview: plainText(body).replace(/\s+/g, ' ').trim().slice(0, 255),
    body: textBodies ? { contentType: 'text', content: plainText(body) } : { contentType: 'html', content: `<html><body>${body}</body></html>` },
    start: { dateTime: wallTime(occurrence.start, timeZone), timeZone },
    end: { dateTime: wallTime(occurrence.end, timeZone), timeZone },
    isCancelled: occurrence.isCancelled,
    isOrganizer: organizerIsMe,
    type: event.recurrence ? 'occurrence' : 'singleInstance',
    seriesMasterId: event.recurrence ? event.id : null,
    organizer: { emailAddress: { name: event.organizer.name, address: event.organizer.email } },
    attendees: event.attendees.map((a) => ({ type: 'required', status: { response: a.response ?? 'none', time: '0001-01-01T00:00:00Z' }, emailAddress: { name: a.name, address: a.email } })),
    location: { displayName: event.location, locationType: 'default' },
    isOnlineMeeting: event.isOnline,
    onlineMeeting: event.isOnline ? { joinUrl: joinUrlOf(occurrence.id) } : null,
  };
}

function select(item: Record<string, unknown>, fields: string | null): Record<string, unknown> {
  if (!fields) return item;
  const wanted = new Set(fields.split(',').map((f) => f.trim()));
  wanted.add('id');
  return Object.fromEntries(Object.entries(item).filter(([key]) => wanted.has(key) || key.startsWith('@odata')));
}

type Answer = { status: number; body?: unknown; headers?: Record<string, string>; text?: { contentType: string; content: string } };

const joinUrlOf = (occurrenceId: string) => `https://teams.microsoft.com/l/meetup-join/${occurrenceId.slice(-12)}`;
/** An online meeting's id, as Graph's (base64 of the organizer and thread), from its occurrence. */
const onlineMeetingIdOf = (occurrenceId: string) => `MSo${Buffer.from(occurrenceId).toString('base64url')}`;
const occurrenceOfMeetingId = (meetingId: string) => (meetingId.startsWith('MSo') ? Buffer.from(meetingId.slice(3), 'base64url').toString('utf8') : '');

export type FakeGraphOptions = {
  port?: number;
  host?: string;
  /** An unknown token for which this answers true gets a fresh mailbox (seeded by onNewMailbox). */
  acceptToken?: (token: string) => boolean;
  onNewMailbox?: (mailbox: FakeMailbox) => void;
};

export async function startFakeGraph(options: FakeGraphOptions = {}): Promise<FakeGraph> {
  const tokens = new Map<string, MailboxState>();
  const mailboxes = new Set<MailboxState>();
  let throttle: { status: 429 | 503; times: number; retryAfterSeconds: number } | null = null;
  let maxPageSize = 1000;
  let delayMs = 0;
  let maxConcurrent = 0;
  // Message id -> how many more times its move inside a $batch is throttled.
  const batchThrottles = new Map<string, { times: number; status: 429 | 503; retryAfterSeconds: number }>();
  let nextLinkOrigin: string | null = null;
  let origin = '';

  // One Graph request, also used for each request inside a $batch. `path` is relative to /v1.0.
  function handle(box: MailboxState, method: string, path: string, query: URLSearchParams, body: unknown, textBodies: boolean, timeZone = 'UTC'): Answer {
    const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
    if (parts[0] !== 'me') return graphError(400, 'BadRequest', `Resource not found for the segment '${parts[0] ?? ''}'.`);
    const rest = parts.slice(1);
    const top = Math.min(Number(query.get('$top') ?? 10) || 10, maxPageSize);
    const skip = Number(query.get('$skip') ?? 0) || 0;
    const page = <T extends Record<string, unknown>>(items: T[], pathForNext: string) => {
      const slice = items.slice(skip, skip + top).map((item) => select(item, query.get('$select')));
      const next = new URLSearchParams(query);
      next.set('$skip', String(skip + top));
      return {
        status: 200,
        body: {
          '@odata.context': `${origin}/v1.0/$metadata#${pathForNext}`,
          value: slice,
          ...(skip + top < items.length ? { '@odata.nextLink': `${nextLinkOrigin ?? origin}/v1.0${pathForNext}?${next.toString()}` } : {}),
        },
      };
    };
    const sortedMessages = (list: StoredMessage[]) => {
      const by = (query.get('$orderby') ?? 'receivedDateTime desc').startsWith('sentDateTime') ? 'sentDateTime' : 'receivedDateTime';
      return [...list].sort((a, b) => b[by].localeCompare(a[by])).map((m) => messageView(m, textBodies));
    };

    if (method === 'GET' && rest.length === 0) {
      return { status: 200, body: select({ id: crypto.createHash('sha1').update(box.user.mail).digest('hex'), displayName: box.user.displayName, mail: box.user.mail, userPrincipalName: box.user.mail }, query.get('$select')) };
    }
    if (rest[0] === 'calendarView' && rest.length === 1 && method === 'GET') {
      const from = Date.parse(query.get('startDateTime') ?? '');
      const to = Date.parse(query.get('endDateTime') ?? '');
      if (!Number.isFinite(from) || !Number.isFinite(to)) return graphError(400, 'ErrorInvalidParameter', 'This request requires a time window specified by the query string parameters StartDateTime and EndDateTime.');
      const found = [...box.events.values()].flatMap((event) =>
        box.occurrencesOf(event.id).filter((o) => o.start.getTime() < to && o.end.getTime() > from).map((o) => ({ event, o })),
      );
      found.sort((a, b) => a.o.start.getTime() - b.o.start.getTime());
      return page(found.map(({ event, o }) => eventView(box, event, o, timeZone, textBodies)), '/me/calendarView');
    }
    if (rest[0] === 'events' && rest.length === 2) {
      const found = box.findOccurrence(rest[1]!);
      if (!found) return graphError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.');
      if (method === 'GET') return { status: 200, body: select(eventView(box, found.event, found.occurrence, timeZone, textBodies), query.get('$select')) };
      if (method === 'PATCH') {
        if (found.event.organizer.email.toLowerCase() !== box.user.mail.toLowerCase()) {
          return graphError(403, 'ErrorAccessDenied', 'Access is denied. Check credentials and try again.');
        }
        const content = (body as { body?: { content?: unknown } } | null)?.body?.content;
        if (typeof content === 'string') box.bodies.set(found.occurrence.id, content);
        return { status: 200, body: eventView(box, found.event, found.occurrence, timeZone, textBodies) };
      }
      return graphError(405, 'ErrorInvalidRequest', 'The OData request is not supported.');
    }
    if (rest[0] === 'onlineMeetings' && method === 'GET') {
      const denied = graphError(403, 'Forbidden', 'Insufficient privileges to complete the operation.');
      if (box.transcriptsDenied === 'meetings') return denied;
      if (rest.length === 1) {
        const joinUrl = /^JoinWebUrl eq '((?:[^']|'')*)'$/i.exec(query.get('$filter') ?? '')?.[1]?.replace(/''/g, "'");
        if (joinUrl === undefined) return graphError(400, 'BadRequest', 'Filter on JoinWebUrl is required.');
        const found = [...box.events.values()]
          .filter((event) => event.isOnline)
          .flatMap((event) => box.occurrencesOf(event.id).map((o) => ({ event, o })))
          .find(({ o }) => joinUrlOf(o.id) === joinUrl);
        const value = found ? [{ id: onlineMeetingIdOf(found.o.id), subject: found.o.subject, joinWebUrl: joinUrl, startDateTime: found.o.start.toISOString(), endDateTime: found.o.end.toISOString() }] : [];
        return { status: 200, body: { '@odata.context': `${origin}/v1.0/$metadata#users('me')/onlineMeetings`, value } };
      }
      const occurrenceId = occurrenceOfMeetingId(rest[1]!);
      if (!box.findOccurrence(occurrenceId)?.event.isOnline) return graphError(404, 'NotFound', 'The meeting was not found.');
      if (rest[2] !== 'transcripts') return graphError(400, 'BadRequest', 'Unsupported request.');
      if (box.transcriptsDenied === 'transcripts') return denied;
      const list = box.transcripts.get(occurrenceId) ?? [];
      if (rest.length === 3) {
        return { status: 200, body: { value: list.map((t) => ({ id: t.id, meetingId: rest[1], createdDateTime: t.createdDateTime, endDateTime: null, transcriptContentUrl: `${origin}/v1.0/me/onlineMeetings/${rest[1]}/transcripts/${t.id}/content` })) } };
      }
      const transcript = list.find((t) => t.id === rest[3]);
      if (!transcript) return graphError(404, 'NotFound', 'The transcript was not found.');
      if (rest[4] === 'content' && rest.length === 5) {
        const format = query.get('$format') ?? 'text/vtt';
        if (format !== 'text/vtt') return graphError(400, 'BadRequest', `Unsupported format ${format}.`);
        return { status: 200, text: { contentType: 'text/vtt', content: transcript.content } };
      }
      return graphError(400, 'BadRequest', 'Unsupported request.');
    }
    if (rest[0] === 'sendMail' && rest.length === 1 && method === 'POST' && body instanceof MimeBody) {
      // Graph's MIME form: the message base64-encoded; anything else is refused as Graph does.
      const text = body.text.trim();
      if (!text || !/^[A-Za-z0-9+/\r\n]+=*$/.test(text)) return graphError(400, 'ErrorMimeContentInvalidBase64String', 'Invalid base64 string for MIME content.');
      const mime = parseMime(Buffer.from(text, 'base64').toString('utf8'));
      const to = addresses(mime.headers.to);
      if (!to.length) return graphError(400, 'ErrorInvalidRecipients', 'At least one recipient is not valid.');
      const html = mime.parts.find((part) => part.contentType === 'text/html');
      const plain = mime.parts.find((part) => part.contentType === 'text/plain');
      const sent: FakeSentMail = { subject: mime.headers.subject ?? '', body: (html ?? plain)?.body ?? '', contentType: html ? 'html' : 'text', to, headers: mime.headers, text: plain?.body ?? null };
      box.sentMail.push(sent);
      box.addSentItems([{ subject: sent.subject, body: html ? plainText(sent.body) : sent.body, to }]);
      return { status: 202 };
    }
    if (rest[0] === 'sendMail' && rest.length === 1 && method === 'POST') {
      const message = (body as { message?: { subject?: unknown; body?: { content?: unknown; contentType?: unknown }; toRecipients?: Array<{ emailAddress?: { address?: unknown } }> } } | null)?.message;
      const to = (message?.toRecipients ?? []).map((r) => String(r.emailAddress?.address ?? '')).filter(Boolean);
      if (!message || !to.length) return graphError(400, 'ErrorInvalidRecipients', 'At least one recipient is not valid.');
      const sent: FakeSentMail = { subject: String(message.subject ?? ''), body: String(message.body?.content ?? ''), contentType: String(message.body?.contentType ?? 'text'), to, headers: {}, text: null };
      box.sentMail.push(sent);
      box.addSentItems([{ subject: sent.subject, body: plainText(sent.body), to }]);
      return { status: 202 };
    }
    if (rest[0] === 'messages') {
      const search = /^"?participants:([^"]+)"?$/.exec(query.get('$search') ?? '')?.[1]?.toLowerCase();
      if (method === 'GET' && rest.length === 1 && search) {
        const involved = [...box.messages.values()].filter((m) => m.from.emailAddress.address.toLowerCase() === search || m.toRecipients.some((r) => r.emailAddress.address.toLowerCase() === search));
        return page(sortedMessages(involved), '/me/messages');
      }
      if (method === 'GET' && rest.length === 1) return page(sortedMessages([...box.messages.values()]), '/me/messages');
      const message = rest[1] ? box.messages.get(rest[1]) : undefined;
      if (!message) return graphError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.');
      if (method === 'GET' && rest.length === 2) return { status: 200, body: select(messageView(message, textBodies), query.get('$select')) };
      if (method === 'POST' && rest[2] === 'move' && rest.length === 3) {
        const destinationId = (body as { destinationId?: unknown } | null)?.destinationId;
        const destination = typeof destinationId === 'string' ? box.resolveFolder(destinationId) : undefined;
        if (!destination) return graphError(400, 'ErrorInvalidIdMalformed', 'Id is malformed.');
        // Exchange gives a moved message a new id.
        box.messages.delete(message.id);
        const moved = { ...message, id: newId(), folderId: destination.id };
        box.messages.set(moved.id, moved);
        return { status: 201, body: messageView(moved, textBodies) };
      }
      return graphError(405, 'ErrorInvalidRequest', 'The OData request is not supported.');
    }
    if (rest[0] === 'mailFolders') {
      const topLevel = () => [...box.folderMap.values()].filter((f) => f.parentFolderId === box.rootId);
      if (rest.length === 1) {
        if (method === 'GET') return page(topLevel().map((f) => box.folderView(f)), '/me/mailFolders');
        if (method === 'POST') return createFolder(box, box.rootId, body);
      }
      const folder = rest[1] ? box.resolveFolder(rest[1]) : undefined;
      if (!folder) return graphError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.');
      if (rest.length === 2 && method === 'GET') return { status: 200, body: select(box.folderView(folder), query.get('$select')) };
      if (rest[2] === 'childFolders' && rest.length === 3) {
        if (method === 'GET') return page([...box.folderMap.values()].filter((f) => f.parentFolderId === folder.id).map((f) => box.folderView(f)), `/me/mailFolders/${folder.id}/childFolders`);
        if (method === 'POST') return createFolder(box, folder.id, body);
      }
      if (rest[2] === 'messages' && rest.length === 3 && method === 'GET') {
        return page(sortedMessages([...box.messages.values()].filter((m) => m.folderId === folder.id)), `/me/mailFolders/${rest[1]}/messages`);
      }
    }
    return graphError(400, 'BadRequest', 'Unsupported request.');
  }

  function createFolder(box: MailboxState, parentId: string, body: unknown): Answer {
    const displayName = (body as { displayName?: unknown } | null)?.displayName;
    if (typeof displayName !== 'string' || !displayName.trim()) return graphError(400, 'ErrorInvalidRequest', 'DisplayName is required.');
    const exists = [...box.folderMap.values()].some((f) => f.parentFolderId === parentId && f.displayName.toLowerCase() === displayName.toLowerCase());
    if (exists) return graphError(409, 'ErrorFolderExists', 'A folder with the specified name already exists.');
    const folder = box.addFolder(displayName, parentId);
    return { status: 201, body: box.folderView(box.folderMap.get(folder.id)!) };
  }

  const subscriptionMap = new Map<string, FakeSubscription>();
  let notificationTarget: ((url: string) => string) | null = null;

  async function handleSubscriptions(box: MailboxState, method: string, path: string, body: unknown): Promise<Answer> {
    const id = path.split('/').filter(Boolean)[1];
    if (!id && method === 'POST') {
      const b = (body ?? {}) as Record<string, unknown>;
      const notificationUrl = String(b.notificationUrl ?? '');
      if (!notificationUrl.startsWith('https://')) return graphError(400, 'ValidationError', 'The Notification Url must be https.');
      // Graph's handshake: the endpoint must answer 200 with the token as text/plain within 10 s.
      const token = `Validation: Testing client application reachability for subscription Request-Id: ${crypto.randomUUID()}`;
      const target = new URL((notificationTarget ?? ((u: string) => u))(notificationUrl));
      target.searchParams.set('validationToken', token);
      const reply = await fetch(target, { method: 'POST', headers: { 'content-type': 'text/plain' }, signal: AbortSignal.timeout(10_000) }).catch(() => null);
      const echoed = reply ? await reply.text() : '';
      if (!reply || reply.status !== 200 || echoed !== token) return graphError(400, 'ValidationError', 'Subscription validation request failed. Notification endpoint must respond with 200 OK to validation request.');
      const subscription: FakeSubscription = {
        id: crypto.randomUUID(),
        resource: String(b.resource ?? ''),
        changeType: String(b.changeType ?? ''),
        notificationUrl,
        clientState: String(b.clientState ?? ''),
        expirationDateTime: String(b.expirationDateTime ?? ''),
        mailbox: box,
      };
      subscriptionMap.set(subscription.id, subscription);
      const { mailbox: _mailbox, ...view } = subscription;
      return { status: 201, body: view };
    }
    const subscription = id ? subscriptionMap.get(id) : undefined;
    if (!subscription || subscription.mailbox !== box) return graphError(404, 'ResourceNotFound', 'The object was not found.');
    if (method === 'PATCH') {
      subscription.expirationDateTime = String((body as { expirationDateTime?: unknown } | null)?.expirationDateTime ?? subscription.expirationDateTime);
      const { mailbox: _mailbox, ...view } = subscription;
      return { status: 200, body: view };
    }
    if (method === 'DELETE') {
      subscriptionMap.delete(subscription.id);
      return { status: 204 };
    }
    return graphError(405, 'ErrorInvalidRequest', 'The OData request is not supported.');
  }

  async function readBody(req: IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (/^text\/plain\b/i.test(req.headers['content-type'] ?? '')) return new MimeBody(Buffer.concat(chunks).toString('utf8'));
    if (!chunks.length) return null;
    try {
      return JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return undefined;
    }
  }

  function send(res: ServerResponse, answer: Answer) {
    if (answer.text) {
      res.writeHead(answer.status, { 'content-type': answer.text.contentType, ...(answer.headers ?? {}) });
      res.end(answer.text.content);
      return;
    }
    // Graph answers 202/204 without a body and without a content type (sendMail, DELETE).
    res.writeHead(answer.status, { ...(answer.body === undefined ? {} : { 'content-type': 'application/json' }), ...(answer.headers ?? {}) });
    res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  }

  const server = https.createServer(testTlsOptions(), async (req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const record: FakeGraphRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      authorized: false,
      status: 0,
      query: Object.fromEntries(url.searchParams),
      prefer: typeof req.headers.prefer === 'string' ? req.headers.prefer : null,
      body: null,
    };
    fake.requests.push(record);
    const finish = (answer: Answer) => {
      record.status = answer.status;
      send(res, answer);
    };
    const auth = req.headers.authorization ?? '';
    const bearer = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    if (bearer && !tokens.has(bearer) && options.acceptToken?.(bearer)) options.onNewMailbox?.(fake.addMailbox({ tokens: [bearer] }));
    const box = bearer ? tokens.get(bearer) : undefined;
    if (!box) return finish(graphError(401, 'InvalidAuthenticationToken', 'Access token is empty or invalid.'));
    record.authorized = true;
    if (throttle && throttle.times > 0) {
      throttle.times -= 1;
      const { status, retryAfterSeconds } = throttle;
      return finish({ ...graphError(status, status === 429 ? 'TooManyRequests' : 'ServiceUnavailable', 'Please retry later.'), headers: { 'Retry-After': String(retryAfterSeconds) } });
    }
    if (!url.pathname.startsWith('/v1.0/')) return finish(graphError(400, 'BadRequest', 'Invalid version.'));
    box.inFlight += 1;
    maxConcurrent = Math.max(maxConcurrent, box.inFlight);
    try {
      const body = await readBody(req);
      record.body = body ?? null;
      if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (body === undefined) return finish(graphError(400, 'BadRequest', 'Invalid JSON.'));
      const textBodies = /outlook\.body-content-type="?text"?/i.test(String(req.headers.prefer ?? ''));
      const timeZone = /outlook\.timezone="([^"]+)"/i.exec(String(req.headers.prefer ?? ''))?.[1] ?? 'UTC';
      const path = url.pathname.slice('/v1.0'.length);
      if (path.startsWith('/subscriptions')) return finish(await handleSubscriptions(box, req.method ?? 'GET', path, body));
      if (path === '/$batch' && req.method === 'POST') {
        const requests = (body as { requests?: Array<{ id: string; method: string; url: string; body?: unknown }> } | null)?.requests;
        if (!Array.isArray(requests)) return finish(graphError(400, 'BadRequest', 'Invalid batch payload.'));
        if (requests.length > 20) return finish(graphError(400, 'BadRequest', 'The number of batch requests exceeds 20.'));
        const responses = requests.map((inner) => {
          const innerUrl = new URL(inner.url.startsWith('/') ? inner.url : `/${inner.url}`, origin);
          const method = inner.method.toUpperCase();
          const item: FakeGraphBatchItem = { method, path: innerUrl.pathname, status: 0 };
          fake.batchItems.push(item);
          const messageId = /^\/me\/messages\/([^/]+)\/move$/.exec(innerUrl.pathname)?.[1];
          const throttled = messageId ? batchThrottles.get(decodeURIComponent(messageId)) : undefined;
          if (throttled && throttled.times > 0) {
            throttled.times -= 1;
            item.status = throttled.status;
            const { body: error } = graphError(throttled.status, throttled.status === 429 ? 'TooManyRequests' : 'ServiceUnavailable', 'Please retry later.');
            return { id: inner.id, status: throttled.status, headers: { 'Retry-After': String(throttled.retryAfterSeconds) }, body: error };
          }
          const answer = handle(box, method, innerUrl.pathname, innerUrl.searchParams, inner.body ?? null, textBodies);
          item.status = answer.status;
          return { id: inner.id, status: answer.status, headers: { 'Content-Type': 'application/json' }, body: answer.body };
        });
        return finish({ status: 200, body: { responses } });
      }
      return finish(handle(box, req.method ?? 'GET', path, url.searchParams, body, textBodies, timeZone));
    } finally {
      box.inFlight -= 1;
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  origin = `https://localhost:${(server.address() as AddressInfo).port}`;

  const fake: FakeGraph = {
    url: `${origin}/v1.0`,
    requests: [],
    batchItems: [],
    addMailbox({ tokens: list, displayName = 'Alex Morgan', mail = 'alex.morgan@contoso.example' }) {
      const box = new MailboxState({ displayName, mail });
      mailboxes.add(box);
      for (const token of list) tokens.set(token, box);
      return box;
    },
    grant(token, mailbox) {
      tokens.set(token, mailbox as MailboxState);
    },
    revoke(token) {
      tokens.delete(token);
    },
    throttle({ status, times, retryAfterSeconds = 1 }) {
      throttle = { status, times, retryAfterSeconds };
    },
    throttleInBatch({ messageIds, times, status = 429, retryAfterSeconds = 1 }) {
      for (const id of messageIds) batchThrottles.set(id, { times, status, retryAfterSeconds });
    },
    setNextLinkOrigin(value) {
      nextLinkOrigin = value;
    },
    setMaxPageSize(size) {
      maxPageSize = size;
    },
    setDelayMs(ms) {
      delayMs = ms;
    },
    maxConcurrentPerMailbox: () => maxConcurrent,
    subscriptions: () => [...subscriptionMap.values()],
    async notify(mailbox, notifyOptions = {}) {
      const statuses: number[] = [];
      for (const subscription of subscriptionMap.values()) {
        if (subscription.mailbox !== mailbox) continue;
        const target = (notificationTarget ?? ((u: string) => u))(subscription.notificationUrl);
        const payload = {
          value: [
            {
              subscriptionId: subscription.id,
              subscriptionExpirationDateTime: subscription.expirationDateTime,
              changeType: notifyOptions.changeType ?? 'updated',
              resource: `Users/${crypto.randomUUID()}/Events/${newId('AAMkEvent')}`,
              resourceData: { '@odata.type': '#Microsoft.Graph.Event', id: newId('AAMkEvent') },
              clientState: notifyOptions.clientState ?? subscription.clientState,
              tenantId: '72f988bf-86f1-41af-91ab-2d7cd011db47',
            },
          ],
        };
        const reply = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
        statuses.push(reply.status);
      }
      return statuses;
    },
    setNotificationTarget(rewrite) {
      notificationTarget = rewrite;
    },
    reset() {
      throttle = null;
      notificationTarget = null;
      maxPageSize = 1000;
      delayMs = 0;
      maxConcurrent = 0;
      batchThrottles.clear();
      nextLinkOrigin = null;
      fake.requests.length = 0;
      fake.batchItems.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
