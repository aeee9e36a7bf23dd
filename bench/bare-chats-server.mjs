// The baseline for bench/api-chats.ts: what the database allows. A bare node:http server with a
// pg Pool that answers GET /api/chats with the same indexed query the app runs (the chat list of
// one owner, pinned first, by last activity) and the same JSON (ChatDto), for a fixed owner: no
// session, no framework, no logging.
import http from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_MAX ?? 10) });
const ownerId = Number(process.env.OWNER_ID);
const sql =
  'select "id", "title", "is_pinned", "is_temporary", "created_at", "updated_at" from "chat" where "owner_id" = $1 order by "is_pinned" desc, "updated_at" desc, "id" desc limit 500';

const server = http.createServer(async (req, res) => {
  if (req.url !== '/api/chats') {
    res.writeHead(404).end();
    return;
  }
  try {
    const { rows } = await pool.query(sql, [ownerId]);
    const body = JSON.stringify(
      rows.map((r) => ({ id: r.id, title: r.title, isPinned: r.is_pinned, isTemporary: r.is_temporary, createdAt: r.created_at.toISOString(), updatedAt: r.updated_at.toISOString() })),
    );
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  } catch (error) {
    res.writeHead(500).end(String(error));
  }
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('ready'));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
