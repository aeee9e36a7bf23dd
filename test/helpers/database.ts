import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

// Each test file gets its own fresh database: a new PGlite directory by default, or a new database
// on the PostgreSQL server named by DATABASE_URL (dropped again afterwards). Either is a copy of
// the database test/setup/databaseTemplate.ts migrated once before the tests; `empty: true` gives
// one that no migration has run on (a test of a first start, or of a move into a new database).
export type FreshDatabase = { dataDir: string; databaseUrl: string | undefined; dispose: () => Promise<void> };

export async function freshDatabase(options: { empty?: boolean } = {}): Promise<FreshDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-test-'));
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const template = process.env.TEST_PGLITE_TEMPLATE;
    if (template && !options.empty) fs.cpSync(template, path.join(dataDir, 'pglite'), { recursive: true });
    return { dataDir, databaseUrl: undefined, dispose: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `ai_coach_test_${crypto.randomBytes(6).toString('hex')}`;
  const template = process.env.TEST_PG_TEMPLATE;
  await withAdmin(serverUrl, (client) => client.query(`create database "${name}"${template && !options.empty ? ` template "${template}"` : ''}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    dataDir,
    databaseUrl: url.toString(),
    dispose: async () => {
      await withAdmin(serverUrl, (client) => client.query(`drop database if exists "${name}" with (force)`));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs `work` on a client of the PostgreSQL server at `url` (to create or drop databases). */
export async function withAdmin(url: string, work: (client: pg.Client) => Promise<unknown>) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}
