import MailComposer from 'nodemailer/lib/mail-composer';
import { GraphRequestError, graphSession, type GraphClientOptions, type Page } from './graphClient.js';

// Microsoft Graph for one mailbox, through the official client (its RetryHandler honours the
// Retry-After of 429 and 503 answers). Every request passes the mailbox's gate (at most 4 at a
// time, Exchange's limit). Paging follows @odata.nextLink only while it points at Graph's own host.

export type GraphMessage = {
  id: string;
  subject: string;
  from: { emailAddress: { name: string; address: string } };
  receivedDateTime: string;
  importance: string;
  hasAttachments: boolean;
  bodyPreview: string;
  isRead: boolean;
};

export type GraphSentMessage = { id: string; subject: string; body: string; sentDateTime: string; to: string[] };

export type GraphFolder = {
  id: string;
  displayName: string;
  parentFolderId: string | null;
  totalItemCount: number;
  unreadItemCount: number;
  childFolderCount: number;
};

export type MoveResult = { messageId: string; success: boolean; newMessageId?: string; error?: string };

export { GraphRequestError };

export type GraphMailOptions = GraphClientOptions;

const messageFields = 'id,subject,from,receivedDateTime,importance,hasAttachments,bodyPreview,isRead';
const folderFields = 'id,displayName,parentFolderId,totalItemCount,unreadItemCount,childFolderCount';
/** Graph's $batch takes at most 20 requests. */
export const batchSize = 20;
/** Rounds of retries for the requests of a $batch that Exchange throttled. */
export const batchRetryRounds = 3;
/** The longest wait honoured from an inner Retry-After; a missing one waits a second. */
const maxRetryAfterMs = 10_000;
const defaultRetryAfterMs = 1_000;

type BatchResponse = { id: string; status: number; headers?: Record<string, string>; body?: { id?: string; error?: { message?: string } } };

/** The Retry-After of an inner $batch response (seconds or an HTTP date), capped. */
function retryAfterMs(headers: Record<string, string> | undefined): number {
  const value = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'retry-after')?.[1];
  if (value === undefined || value === null || String(value).trim() === '') return defaultRetryAfterMs;
  const text = String(value).trim();
  const ms = /^\d+(\.\d+)?$/.test(text) ? Number(text) * 1000 : Date.parse(text) - Date.now();
  if (!Number.isFinite(ms)) return defaultRetryAfterMs;
  return Math.min(Math.max(ms, 0), maxRetryAfterMs);
}
const maxPageSize = 50;


export function graphMail(options: GraphMailOptions) {
  const { client, ownLink, call } = graphSession(options);

  async function getPage<T>(pathOrLink: string, query: Record<string, string> = {}, headers: Record<string, string> = {}): Promise<Page<T>> {
    return call(() => {
      let request = client.api(pathOrLink).headers(headers);
      if (!pathOrLink.startsWith('https://')) request = request.query(query);
      return request.get() as Promise<Page<T>>;
    });
  }

  /** Follows nextLinks until `limit` items are read or the pages end. */
  async function collect<T>(path: string, query: Record<string, string>, limit: number, headers: Record<string, string> = {}): Promise<T[]> {
    const items: T[] = [];
    let page = await getPage<T>(path, query, headers);
    for (;;) {
      items.push(...(page.value ?? []));
      const next = ownLink(page['@odata.nextLink']);
      if (items.length >= limit || !next) break;
      page = await getPage<T>(next, {}, headers);
    }
    return items.slice(0, limit);
  }

  return {
    /** The signed-in account (GET /me). */
    async me(): Promise<{ email: string; displayName: string }> {
      const me = await call(() => client.api('/me').select('displayName,mail,userPrincipalName').get());
      return { email: String(me.mail ?? me.userPrincipalName ?? ''), displayName: String(me.displayName ?? '') };
    },

    /** One page of a folder's messages, newest first, with the link to the next page if any. */
    async messagesPage(params: { folderId?: string; pageSize: number; pageLink?: string }): Promise<{ messages: GraphMessage[]; nextLink: string | null }> {
      const link = params.pageLink ? ownLink(params.pageLink) : undefined;
      if (params.pageLink && !link) throw new GraphRequestError(400, 'invalidPageLink', 'That page of emails cannot be loaded');
      const path = params.folderId ? `/me/mailFolders/${encodeURIComponent(params.folderId)}/messages` : '/me/messages';
      const page = await getPage<GraphMessage>(link ?? path, {
        $select: messageFields,
        $orderby: 'receivedDateTime desc',
        $top: String(Math.min(params.pageSize, maxPageSize)),
      });
      return { messages: (page.value ?? []).map(normaliseMessage), nextLink: ownLink(page['@odata.nextLink']) ?? null };
    },

    /** Recent messages of a folder, newest first, across pages. */
    async recentMessages(folderId: string, limit: number): Promise<GraphMessage[]> {
      const items = await collect<GraphMessage>(
        `/me/mailFolders/${encodeURIComponent(folderId)}/messages`,
        { $select: messageFields, $orderby: 'receivedDateTime desc', $top: String(Math.min(limit, maxPageSize)) },
        limit,
      );
      return items.map(normaliseMessage);
    },

    /** Sent mail with plain-text bodies, newest first, across pages. */
    async sentMessages(limit: number): Promise<GraphSentMessage[]> {
      type Raw = { id: string; subject?: string | null; body?: { content?: string | null } | null; sentDateTime?: string | null; toRecipients?: Array<{ emailAddress?: { address?: string | null } }> | null };
      const items = await collect<Raw>(
        '/me/mailFolders/sentitems/messages',
        { $select: 'id,subject,body,sentDateTime,toRecipients', $orderby: 'sentDateTime desc', $top: String(Math.min(limit, maxPageSize)) },
        limit,
        { Prefer: 'outlook.body-content-type="text"' },
      );
      return items.map((raw) => ({
        id: raw.id,
        subject: raw.subject ?? '',
        body: raw.body?.content ?? '',
        sentDateTime: raw.sentDateTime ?? '',
        to: (raw.toRecipients ?? []).map((r) => r.emailAddress?.address ?? '').filter(Boolean),
      }));
    },

    /** Every folder: the top level, then child folders (depth first), each with its parent. */
    async folders(): Promise<GraphFolder[]> {
      const query = { $select: folderFields, $top: '100' };
      const top = await collect<GraphFolder>('/me/mailFolders', query, 1000);
      const result: GraphFolder[] = [];
      const visit = async (folders: GraphFolder[], depth: number) => {
        // Children are fetched side by side; the gate keeps the mailbox at 4 requests at a time.
        const children = await Promise.all(
          folders.map((folder) =>
            folder.childFolderCount > 0 && depth < 5
              ? collect<GraphFolder>(`/me/mailFolders/${encodeURIComponent(folder.id)}/childFolders`, query, 1000)
              : Promise.resolve([] as GraphFolder[]),
          ),
        );
        for (const [i, folder] of folders.entries()) {
          result.push(normaliseFolder(folder));
          if (children[i]!.length) await visit(children[i]!, depth + 1);
        }
      };
      await visit(top, 0);
      return result;
    },

    async createFolder(displayName: string, parentFolderId?: string): Promise<GraphFolder> {
      const path = parentFolderId ? `/me/mailFolders/${encodeURIComponent(parentFolderId)}/childFolders` : '/me/mailFolders';
      const folder = await call(() => client.api(path).post({ displayName }));
      return normaliseFolder(folder as GraphFolder);
    },

    /**
     * Moves messages with $batch, 20 per request; each message succeeds or fails on its own.
     * Exchange runs the requests of a batch separately and may throttle some of them (429 or 503
     * with Retry-After inside the batch answer): only those are sent again, after the longest
     * Retry-After of the round (capped), for at most `batchRetryRounds` more rounds.
     */
    async moveMessages(messageIds: string[], destinationId: string): Promise<MoveResult[]> {
      const results = new Map<number, MoveResult>();
      let pending = messageIds.map((messageId, index) => ({ messageId, index }));
      for (let round = 0; pending.length > 0; round += 1) {
        const throttled: typeof pending = [];
        let waitMs = 0;
        for (let start = 0; start < pending.length; start += batchSize) {
          const chunk = pending.slice(start, start + batchSize);
          const body = {
            requests: chunk.map(({ messageId }, i) => ({
              id: String(i + 1),
              method: 'POST',
              url: `/me/messages/${encodeURIComponent(messageId)}/move`,
              headers: { 'Content-Type': 'application/json' },
              body: { destinationId },
            })),
          };
          const answer = (await call(() => client.api('/$batch').post(body))) as { responses?: BatchResponse[] };
          const byId = new Map((answer.responses ?? []).map((r) => [String(r.id), r]));
          chunk.forEach((item, i) => {
            const response = byId.get(String(i + 1));
            const { messageId } = item;
            if (response && response.status >= 200 && response.status < 300) {
              results.set(item.index, { messageId, success: true, ...(response.body?.id ? { newMessageId: response.body.id } : {}) });
              return;
            }
            if (response && (response.status === 429 || response.status === 503) && round < batchRetryRounds) {
              throttled.push(item);
              waitMs = Math.max(waitMs, retryAfterMs(response.headers));
              return;
            }
            results.set(item.index, { messageId, success: false, error: response?.body?.error?.message || 'The email could not be moved' });
          });
        }
        pending = throttled;
        // The wait holds no place at the mailbox's gate.
        if (pending.length) await new Promise((resolve) => setTimeout(resolve, waitMs));
      }
      return messageIds.map((messageId, index) => results.get(index) ?? { messageId, success: false, error: 'The email could not be moved' });
    },

    /** Sends a message from the user's mailbox (kept in Sent Items). */
    async sendMail(params: { subject: string; html: string; to: Array<{ name: string; email: string }> }): Promise<void> {
      await call(() =>
        client.api('/me/sendMail').post({
          message: {
            subject: params.subject,
            body: { contentType: 'HTML', content: params.html },
            toRecipients: params.to.map((r) => ({ emailAddress: { name: r.name || r.email, address: r.email } })),
          },
          saveToSentItems: true,
        }),
      );
    },

    /**
     * Sends a message given as MIME, for headers Graph's JSON form refuses (it takes only `x-`
     * internet message headers; a mail's List-Unsubscribe is not one): Graph takes the RFC 5322
     * message base64-encoded as a text/plain body and answers 202, saving it to Sent Items.
     * The message is composed by nodemailer's MailComposer (html and text alternatives).
     */
    async sendMimeMail(params: { from: string; subject: string; html: string; text: string; to: Array<{ name: string; email: string }>; headers: Record<string, string> }): Promise<void> {
      const mime = await new MailComposer({
        from: params.from,
        to: params.to.map((r) => ({ name: r.name, address: r.email })),
        subject: params.subject,
        html: params.html,
        text: params.text,
        headers: params.headers,
      })
        .compile()
        .build();
      await call(() => client.api('/me/sendMail').header('Content-Type', 'text/plain').post(mime.toString('base64')));
    },

    /** Subjects of the latest messages exchanged with one address (either direction). */
    async subjectsWith(address: string, limit: number): Promise<string[]> {
      const page = (await call(() =>
        client
          .api('/me/messages')
          .query({ $search: `"participants:${address.replace(/"/g, '')}"`, $select: 'subject,receivedDateTime', $top: String(limit) })
          .get(),
      )) as Page<{ subject?: string | null }>;
      return (page.value ?? []).map((m) => m.subject ?? '').filter(Boolean).slice(0, limit);
    },
  };
}

export type GraphMail = ReturnType<typeof graphMail>;

function normaliseMessage(raw: GraphMessage): GraphMessage {
  return {
    id: raw.id,
    subject: raw.subject ?? '',
    from: { emailAddress: { name: raw.from?.emailAddress?.name ?? '', address: raw.from?.emailAddress?.address ?? '' } },
    receivedDateTime: raw.receivedDateTime ?? '',
    importance: raw.importance ?? 'normal',
    hasAttachments: Boolean(raw.hasAttachments),
    bodyPreview: raw.bodyPreview ?? '',
    isRead: Boolean(raw.isRead),
  };
}

function normaliseFolder(raw: GraphFolder): GraphFolder {
  return {
    id: raw.id,
    displayName: raw.displayName ?? '',
    parentFolderId: raw.parentFolderId ?? null,
    totalItemCount: raw.totalItemCount ?? 0,
    unreadItemCount: raw.unreadItemCount ?? 0,
    childFolderCount: raw.childFolderCount ?? 0,
  };
}
