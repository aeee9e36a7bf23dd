import crypto from 'node:crypto';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { testTlsOptions } from '../tls.js';

// A local https server speaking the slice of Microsoft Graph v1.0 the app uses, per access token:
// /me, /me/messages, /me/mailFolders (with child folders, well-known names inbox and sentitems),
// messages of a folder, folder creation, move (the moved message gets a new id, as in Exchange),
// $batch (at most 20), OData paging ($top, $skip, @odata.nextLink), $select, the Prefer
// outlook.body-content-type header, 401 for unknown tokens, and 429/503 with Retry-After on demand
// (for whole requests, or for chosen requests inside a $batch, as Exchange answers them), and on
// demand @odata.nextLinks pointing at another host (which a client must never follow).

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
};

export type FakeGraphRequest = { method: string; path: string; authorized: boolean; status: number };
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

function select(item: Record<string, unknown>, fields: string | null): Record<string, unknown> {
  if (!fields) return item;
  const wanted = new Set(fields.split(',').map((f) => f.trim()));
  wanted.add('id');
  return Object.fromEntries(Object.entries(item).filter(([key]) => wanted.has(key) || key.startsWith('@odata')));
}

type Answer = { status: number; body?: unknown; headers?: Record<string, string> };

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
  function handle(box: MailboxState, method: string, path: string, query: URLSearchParams, body: unknown, textBodies: boolean): Answer {
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
    if (rest[0] === 'messages') {
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

  async function readBody(req: IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (!chunks.length) return null;
    try {
      return JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return undefined;
    }
  }

  function send(res: ServerResponse, answer: Answer) {
    res.writeHead(answer.status, { 'content-type': 'application/json', ...(answer.headers ?? {}) });
    res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  }

  const server = https.createServer(testTlsOptions(), async (req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const record: FakeGraphRequest = { method: req.method ?? 'GET', path: url.pathname, authorized: false, status: 0 };
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
      if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (body === undefined) return finish(graphError(400, 'BadRequest', 'Invalid JSON.'));
      const textBodies = /outlook\.body-content-type="?text"?/i.test(String(req.headers.prefer ?? ''));
      const path = url.pathname.slice('/v1.0'.length);
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
      return finish(handle(box, req.method ?? 'GET', path, url.searchParams, body, textBodies));
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
    reset() {
      throttle = null;
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
