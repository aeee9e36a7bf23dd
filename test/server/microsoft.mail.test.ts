import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { startServer, type RunningServer } from '../../src/server/server.js';
import { microsoftTexts } from '../../src/shared/texts/index.js';
import { startFakeGraph, type FakeGraph, type FakeMailbox } from '../fakes/graph/index.js';
import { signUp } from '../helpers/clients.js';
import { freshDatabase, type FreshDatabase } from '../helpers/database.js';
import { HttpClient, startTestServer } from '../helpers/server.js';

// The mail screens' paths against the https Graph fake: paging, folders, $batch moves,
// throttling, the per-mailbox concurrency limit, isolation, and no token in answers or logs.
let graph: FakeGraph;
let server: RunningServer;
let db: FreshDatabase;
const logLines: string[] = [];

beforeAll(async () => {
  graph = await startFakeGraph();
  db = await freshDatabase();
  const log = pino({ level: 'debug' }, new Writable({ write(chunk, _enc, done) { logLines.push(String(chunk)); done(); } }));
  server = await startServer(
    loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: db.dataDir, DATABASE_URL: db.databaseUrl, SESSION_SECRET: 'test-session-secret-that-is-long-enough-0123456789', DEMO_MODE: 'false', MICROSOFT_GRAPH_BASE_URL: graph.url }),
    { log },
  );
});
afterAll(async () => {
  await server?.close();
  await db?.dispose();
  await graph?.close();
});
beforeEach(() => graph.reset());

async function connectedUser(name: string): Promise<{ http: HttpClient; box: FakeMailbox; token: string }> {
  const token = `token-of-${name}`;
  const box = graph.addMailbox({ tokens: [token], mail: `${name}@contoso.example` });
  const { http } = await signUp(server.url, name);
  const res = await http.post('/api/auth/microsoft/manual-token', { token, service: 'microsoft_email' });
  expect(res.status).toBe(200);
  return { http, box, token };
}

describe('emails', () => {
  it('lists the inbox newest first with the spec fields, and loads more through Graph paging', async () => {
    const { http, box } = await connectedUser('mail_pages');
    box.addMessages(Array.from({ length: 30 }, (_, i) => ({ subject: `Message ${i + 1}`, fromName: 'Sam Lee', fromAddress: 'sam@contoso.example', importance: i === 29 ? 'high' : 'normal', hasAttachments: i === 29, body: `Preview of ${i + 1}` })));
    const first = await http.get('/api/microsoft-graph/real-emails');
    expect(first.status).toBe(200);
    expect(first.json.success).toBe(true);
    expect(first.json.emails).toHaveLength(25);
    expect(first.json.emails[0]).toMatchObject({
      subject: 'Message 30', importance: 'high', hasAttachments: true, bodyPreview: 'Preview of 30',
      from: { emailAddress: { name: 'Sam Lee', address: 'sam@contoso.example' } }, receivedDateTime: expect.stringMatching(/^2026-/),
    });
    const next = await http.get(`/api/microsoft-graph/real-emails?pageToken=${encodeURIComponent(first.json.nextPageToken)}`);
    expect(next.json.emails.map((e: { subject: string }) => e.subject)).toEqual(['Message 5', 'Message 4', 'Message 3', 'Message 2', 'Message 1']);
    expect(next.json.nextPageToken).toBeNull();

    const coach = await http.get('/api/ai-coach/microsoft/emails');
    expect(coach.json.emails).toHaveLength(10);
    expect(coach.json.message).toEqual(expect.any(String));
  });

  it('follows a page link only to Graph itself', async () => {
    const { http } = await connectedUser('mail_foreign_link');
    const res = await http.get(`/api/microsoft-graph/real-emails?pageToken=${encodeURIComponent('https://evil.example/v1.0/me/messages?$skip=10')}`);
    expect(res).toMatchObject({ status: 400, json: { message: microsoftTexts.badPageToken } });
    expect(graph.requests.some((r) => r.path.includes('evil'))).toBe(false);
  });

  it('never follows an @odata.nextLink Graph answers on another host: the listing stops there', async () => {
    const { http, box } = await connectedUser('mail_foreign_next');
    box.addMessages(Array.from({ length: 12 }, (_, i) => ({ subject: `Paged ${i + 1}` })));
    for (let i = 0; i < 6; i++) box.addFolder(`Folder ${i}`);
    // A second https server standing for the foreign host: it sees every request made to it.
    const foreign = await startFakeGraph();
    try {
      graph.setMaxPageSize(3);
      graph.setNextLinkOrigin(new URL(foreign.url).origin.replace('localhost', '127.0.0.1'));
      const emails = await http.get('/api/microsoft-graph/real-emails');
      expect(emails.status).toBe(200);
      expect(emails.json.emails.map((e: { subject: string }) => e.subject)).toEqual(['Paged 12', 'Paged 11', 'Paged 10']);
      expect(emails.json.nextPageToken).toBeNull();
      // Folders follow nextLinks themselves: the first page is all there is.
      const folders = await http.get('/api/microsoft-email/folders');
      expect(folders.status).toBe(200);
      expect(folders.json.folders).toHaveLength(3);
      expect(foreign.requests).toEqual([]);
      // Besides the token check at connect (/me), one page of each listing and nothing more.
      expect(graph.requests.map((r) => r.path).filter((path) => path !== '/v1.0/me')).toEqual(['/v1.0/me/mailFolders/inbox/messages', '/v1.0/me/mailFolders']);
    } finally {
      await foreign.close();
    }
  });

  it('honours Retry-After on 429 and 503', async () => {
    const { http, box } = await connectedUser('mail_throttled');
    box.addMessages([{ subject: 'After the wait' }]);
    graph.throttle({ status: 429, times: 1, retryAfterSeconds: 1 });
    const started = Date.now();
    const res = await http.get('/api/microsoft-graph/real-emails');
    expect(res.status).toBe(200);
    expect(res.json.emails[0].subject).toBe('After the wait');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    graph.throttle({ status: 503, times: 1, retryAfterSeconds: 1 });
    expect((await http.get('/api/microsoft-graph/real-emails')).status).toBe(200);
    expect(graph.requests.filter((r) => r.status === 429 || r.status === 503)).toHaveLength(2);
  });

  it('says mail is not connected, and reconnect when Graph refuses the stored token', async () => {
    const { http } = await signUp(server.url, 'mail_none');
    expect(await http.get('/api/microsoft-graph/real-emails')).toMatchObject({ status: 412, json: { message: microsoftTexts.notConnected } });
    const { http: revoked, token } = await connectedUser('mail_revoked');
    graph.revoke(token);
    expect(await revoked.get('/api/microsoft-email/folders')).toMatchObject({ status: 412, json: { message: microsoftTexts.reconnect } });
  });
});

describe('folders', () => {
  it('lists folders with counts and child folders, and creates a folder under a parent', async () => {
    const { http, box } = await connectedUser('folders_user');
    const projects = box.addFolder('Projects');
    box.addFolder('Apollo', projects.id);
    box.addMessages([{ subject: 'one' }, { subject: 'two', isRead: true }]);
    const list = await http.get('/api/microsoft-email/folders');
    expect(list.status).toBe(200);
    const names = list.json.folders.map((f: { displayName: string }) => f.displayName);
    expect(names).toEqual(expect.arrayContaining(['Inbox', 'Sent Items', 'Projects', 'Apollo']));
    expect(list.json.folders.find((f: { displayName: string }) => f.displayName === 'Inbox')).toMatchObject({ totalItemCount: 2, unreadItemCount: 1, childFolderCount: 0 });
    expect(list.json.folders.find((f: { displayName: string }) => f.displayName === 'Projects')).toMatchObject({ childFolderCount: 1 });

    const created = await http.post('/api/microsoft-email/folders', { displayName: '  Hermes  ', parentFolderId: projects.id });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ success: true, folder: { displayName: 'Hermes', parentFolderId: projects.id } });
    expect(box.folders().find((f) => f.displayName === 'Hermes')?.parentFolderId).toBe(projects.id);

    expect(await http.post('/api/microsoft-email/folders', { displayName: 'Hermes', parentFolderId: projects.id })).toMatchObject({ status: 409, json: { message: microsoftTexts.folderExists } });
    expect(await http.post('/api/microsoft-email/folders', { displayName: '   ' })).toMatchObject({ status: 400, json: { message: microsoftTexts.folderNameRequired } });
    expect(await http.post('/api/microsoft-email/folders', { displayName: 'x'.repeat(256) })).toMatchObject({ status: 400 });
    expect(await http.post('/api/microsoft-email/folders', { displayName: 'Bad\u0000' })).toMatchObject({ status: 400 });
    expect(await http.post('/api/microsoft-email/folders', { displayName: 'Orphan', parentFolderId: 'AAMkUnknown' })).toMatchObject({ status: 404 });
  });

  it('keeps at most 4 requests in flight for one mailbox', async () => {
    const { http, box } = await connectedUser('folders_concurrency');
    for (let i = 0; i < 10; i++) box.addFolder(`Parent ${i}`, box.addFolder(`Top ${i}`).id);
    graph.setDelayMs(60);
    const res = await http.get('/api/microsoft-email/folders');
    expect(res.status).toBe(200);
    expect(res.json.folders.length).toBeGreaterThanOrEqual(24);
    expect(graph.maxConcurrentPerMailbox()).toBeGreaterThan(1);
    expect(graph.maxConcurrentPerMailbox()).toBeLessThanOrEqual(4);
  });
});

describe('moving emails', () => {
  it('moves 22 messages in $batch chunks of 20; an unknown id fails alone', async () => {
    const { http, box } = await connectedUser('move_user');
    const archive = box.addFolder('Archive 2026');
    const ids = box.addMessages(Array.from({ length: 22 }, (_, i) => ({ subject: `Move ${i + 1}` })));
    const res = await http.post('/api/microsoft-email/move-emails', { messageIds: [...ids, 'AAMkDoesNotExist'], destinationFolderId: archive.id });
    expect(res.status).toBe(200);
    expect(res.json.results).toHaveLength(23);
    expect(res.json.results.filter((r: { success: boolean }) => r.success)).toHaveLength(22);
    expect(res.json.results.at(-1)).toMatchObject({ messageId: 'AAMkDoesNotExist', success: false });
    expect(res.json.success).toBe(false);
    expect(box.messageIdsIn(box.inboxId)).toHaveLength(0);
    expect(box.messageSubjectsIn(archive.id)).toHaveLength(22);
    // Exchange gives moved messages new ids.
    expect(box.messageIdsIn(archive.id).some((id) => ids.includes(id))).toBe(false);
    expect(graph.requests.filter((r) => r.path === '/v1.0/$batch')).toHaveLength(2);
  });

  it('retries only the moves a $batch answers 429 or 503, after their Retry-After, and all end up moved', async () => {
    const { http, box } = await connectedUser('move_throttled');
    const archive = box.addFolder('Archive');
    const ids = box.addMessages(Array.from({ length: 22 }, (_, i) => ({ subject: `Throttled ${i + 1}` })));
    graph.throttleInBatch({ messageIds: [ids[0]!, ids[7]!], times: 1, status: 429 });
    graph.throttleInBatch({ messageIds: [ids[21]!], times: 1, status: 503 });
    graph.setDelayMs(40);
    const started = Date.now();
    const res = await http.post('/api/microsoft-email/move-emails', { messageIds: ids, destinationFolderId: archive.id });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, moved: 22 });
    expect(res.json.results.map((r: { messageId: string; success: boolean }) => [r.messageId, r.success])).toEqual(ids.map((id) => [id, true]));
    expect(box.messageIdsIn(box.inboxId)).toHaveLength(0);
    expect(box.messageSubjectsIn(archive.id)).toHaveLength(22);
    // Waited for Retry-After (1 s), then sent only the three throttled moves again, in one $batch.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    const moves = graph.batchItems.filter((item) => item.path.endsWith('/move'));
    expect(moves).toHaveLength(25);
    expect(moves.slice(22).map((item) => item.status)).toEqual([201, 201, 201]);
    expect(graph.requests.filter((r) => r.path === '/v1.0/$batch')).toHaveLength(3);
    expect(graph.maxConcurrentPerMailbox()).toBeLessThanOrEqual(4);
  });

  it('gives up on a move that stays throttled after a few rounds: it fails alone', async () => {
    const { http, box } = await connectedUser('move_still_throttled');
    const archive = box.addFolder('Archive');
    const ids = box.addMessages(Array.from({ length: 5 }, (_, i) => ({ subject: `Busy ${i + 1}` })));
    graph.throttleInBatch({ messageIds: [ids[2]!], times: Number.POSITIVE_INFINITY, status: 429 });
    const res = await http.post('/api/microsoft-email/move-emails', { messageIds: ids, destinationFolderId: archive.id });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: false, moved: 4 });
    expect(res.json.results.filter((r: { success: boolean }) => !r.success)).toEqual([{ messageId: ids[2], success: false, error: expect.any(String) }]);
    expect(box.messageIdsIn(box.inboxId)).toEqual([ids[2]]);
    expect(box.messageSubjectsIn(archive.id)).toHaveLength(4);
    // The first try and three retries, each with that move alone after the first.
    const tries = graph.batchItems.filter((item) => item.path === `/me/messages/${encodeURIComponent(ids[2]!)}/move`);
    expect(tries.map((item) => item.status)).toEqual([429, 429, 429, 429]);
    expect(graph.requests.filter((r) => r.path === '/v1.0/$batch')).toHaveLength(4);
  }, 30_000);

  it('refuses a move without emails or destination with the spec message', async () => {
    const { http } = await connectedUser('move_invalid');
    expect(await http.post('/api/microsoft-email/move-emails', { messageIds: [], destinationFolderId: 'x' })).toMatchObject({ status: 400, json: { message: microsoftTexts.cannotMove } });
    expect(await http.post('/api/microsoft-email/move-emails', { messageIds: ['a'] })).toMatchObject({ status: 400, json: { message: microsoftTexts.cannotMove } });
    expect((await http.post('/api/microsoft-email/move-emails', { messageIds: Array(501).fill('a'), destinationFolderId: 'b' })).status).toBe(400);
    const deep = JSON.stringify({ messageIds: JSON.parse('['.repeat(500) + ']'.repeat(500)), destinationFolderId: 'x' });
    expect((await http.post('/api/microsoft-email/move-emails', deep)).status).toBe(400);
  });

  it('reaches only the signed-in user’s own mailbox', async () => {
    const alice = await connectedUser('iso_alice');
    const bob = await connectedUser('iso_bob');
    const [aliceMessage] = alice.box.addMessages([{ subject: 'Alice private' }]);
    const bobFolder = bob.box.addFolder('Bob folder');
    const res = await bob.http.post('/api/microsoft-email/move-emails', { messageIds: [aliceMessage], destinationFolderId: bobFolder.id });
    expect(res.json.results[0].success).toBe(false);
    expect(alice.box.messageSubjectsIn(alice.box.inboxId)).toEqual(['Alice private']);
    const bobList = await bob.http.get('/api/microsoft-graph/real-emails');
    expect(JSON.stringify(bobList.json)).not.toContain('Alice private');
  });
});

describe('secrets', () => {
  it('never puts a token in an answer or a log line', async () => {
    const { http, token } = await connectedUser('secret_user');
    const answers = [
      await http.get('/api/ai-coach/microsoft/connection-status'),
      await http.get('/api/microsoft-graph/real-emails'),
      await http.get('/api/microsoft-email/folders'),
      await http.post('/api/auth/microsoft/manual-token', { token, service: 'microsoft_teams' }),
    ];
    for (const answer of answers) {
      expect(answer.text).not.toContain(token);
      expect(JSON.stringify([...answer.headers])).not.toContain(token);
    }
    expect(logLines.join('\n')).not.toContain('token-of-');
    expect(logLines.length).toBeGreaterThan(0);
  });
});

describe('a token sealed with a key the server no longer has', () => {
  it('asks the user to reconnect instead of failing', async () => {
    const database = await freshDatabase();
    const env = { DEMO_MODE: 'false', MICROSOFT_GRAPH_BASE_URL: graph.url };
    const before = await startTestServer({ ...env, TOKEN_ENCRYPTION_KEY: 'the-first-token-key-0123456789-abcdef' }, database);
    graph.addMailbox({ tokens: ['token-before-rotation'], mail: 'rotated@contoso.example' });
    const { http } = await signUp(before.url, 'rotated_key');
    expect((await http.post('/api/auth/microsoft/manual-token', { token: 'token-before-rotation', service: 'microsoft_email' })).status).toBe(200);
    await before.stop();
    // Rotated without keeping the old key in TOKEN_ENCRYPTION_PREVIOUS_KEYS.
    const after = await startTestServer({ ...env, TOKEN_ENCRYPTION_KEY: 'the-second-token-key-0123456789-abcdef' }, database);
    try {
      const client = new HttpClient(after.url);
      expect((await client.post('/api/auth/login', { username: 'rotated_key', password: 'secret123' })).status).toBe(200);
      const res = await client.get('/api/microsoft-graph/real-emails');
      expect(res.status).toBeLessThan(500);
      expect(res.text).toContain(microsoftTexts.reconnect);
    } finally {
      await after.stop();
      await database.dispose();
    }
  });
});
