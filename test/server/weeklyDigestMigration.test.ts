import { MikroORM } from '@mikro-orm/core';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ormOptions } from '../../src/server/db/orm.js';
import { freshDatabase, type FreshDatabase } from '../helpers/database.js';
import path from 'node:path';

// Issue 49: the profile's 'Weekly digest' (user_settings.weekly_digest) and the nudges' weekly
// review were two switches for one thing; the column goes, and nobody's choice is lost: whoever
// had turned either off keeps the weekly review off, and a review planned for them is dropped.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let database: FreshDatabase;
let orm: MikroORM;
afterAll(async () => {
  await orm?.close(true);
  await database?.dispose();
});

describe('Migration20261202100000_weekly_digest', () => {
  it('turns the weekly review off for whoever had the digest off, and keeps every other choice', async () => {
    database = await freshDatabase({ empty: true });
    orm = await MikroORM.init(ormOptions(database.databaseUrl ? { kind: 'postgresql', url: database.databaseUrl } : { kind: 'pglite', directory: path.join(database.dataDir, 'pglite') }));
    await orm.migrator.up({ to: 'Migration20261201220000_memory_sensitive' });
    const sql = (query: string, params: unknown[] = []) => orm.em.getConnection().execute(query, params);
    const users: Record<string, number> = {};
    for (const name of ['digestOffNoNudges', 'digestOffWithNudges', 'digestOnReviewOff', 'digestOn', 'noSettings']) {
      const [row] = await sql(`insert into "app_user" ("username", "username_key", "full_name", "created_at") values (?, ?, ?, now()) returning "id"`, [name, name.toLowerCase(), name]);
      users[name] = row.id;
    }
    const settings = (enabled: boolean, day = 'mon') => JSON.stringify({ weeklyReview: { enabled, day, time: '08:30' }, meetingBrief: { enabled: true, minutesBefore: 30 }, channels: { email: true, push: false, call: false }, quietHours: { start: '21:00', end: '07:00' }, maxPerWeek: 3 });
    for (const [name, digest] of [['digestOffNoNudges', false], ['digestOffWithNudges', false], ['digestOnReviewOff', true], ['digestOn', true]] as const) {
      await sql(`insert into "user_settings" ("user_id", "weekly_digest", "email_notifications", "updated_at") values (?, ?, false, now())`, [users[name], digest]);
    }
    await sql(`insert into "nudge_setting" ("user_id", "settings", "updated_at") values (?, ?::jsonb, now()), (?, ?::jsonb, now()), (?, ?::jsonb, now())`, [users.digestOffWithNudges, settings(true, 'fri'), users.digestOnReviewOff, settings(false), users.digestOn, settings(true, 'wed')]);
    for (const name of ['digestOffWithNudges', 'digestOn']) {
      await sql(`insert into "nudge_run" ("owner_id", "kind", "status", "trigger", "channels", "due_at", "attempts", "created_at", "updated_at") values (?, 'weekly_review', 'queued', 'scheduled', '["app"]'::jsonb, now() + interval '1 day', 0, now(), now())`, [users[name]]);
    }

    await orm.migrator.up();

    const nudges = async (name: string) => ((await sql(`select "settings" from "nudge_setting" where "user_id" = ?`, [users[name]]))[0]?.settings ?? null) as Record<string, { enabled?: boolean; day?: string }> | null;
    expect((await nudges('digestOffNoNudges'))?.weeklyReview).toEqual({ enabled: false, day: 'mon', time: '08:30' });
    expect((await nudges('digestOffNoNudges'))?.meetingBrief).toEqual({ enabled: false, minutesBefore: 60 });
    // Only the review's switch changes; the rest of their settings stay.
    expect(await nudges('digestOffWithNudges')).toEqual({ ...JSON.parse(settings(true, 'fri')), weeklyReview: { enabled: false, day: 'fri', time: '08:30' } });
    expect(await nudges('digestOnReviewOff')).toEqual(JSON.parse(settings(false)));
    expect(await nudges('digestOn')).toEqual(JSON.parse(settings(true, 'wed')));
    expect(await nudges('noSettings')).toBeNull();
    const planned = await sql(`select "owner_id" from "nudge_run" where "status" = 'queued'`);
    expect(planned.map((r: { owner_id: number }) => r.owner_id)).toEqual([users.digestOn]);
    const columns = await sql(`select "column_name" from "information_schema"."columns" where "table_name" = 'user_settings'`);
    expect(columns.map((c: { column_name: string }) => c.column_name)).not.toContain('weekly_digest');
    expect((await sql(`select "email_notifications" from "user_settings" where "user_id" = ?`, [users.digestOffNoNudges]))[0].email_notifications).toBe(false);
  });
});
