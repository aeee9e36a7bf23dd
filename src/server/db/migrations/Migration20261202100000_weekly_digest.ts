import { Migration } from '@mikro-orm/migrations';

// Settings showed a 'Weekly digest' switch (user_settings.weekly_digest, which nothing
// read) beside the weekly review's (nudge_setting.settings.weeklyReview.enabled, which plans the
// review). They are one setting now, the nudges' one; the profile's weeklyDigest reads and writes
// it. Nobody's choice is lost: whoever had turned either off keeps the weekly review off (a row
// with the defaults of that day, review off, for a user without nudge settings), and a review
// planned for them is dropped (its queued job finds no run and ends).
const defaults = { weeklyReview: { enabled: false, day: 'mon', time: '08:30' }, meetingBrief: { enabled: false, minutesBefore: 60 }, channels: { email: false, push: false, call: false }, quietHours: { start: '20:00', end: '07:00' }, maxPerWeek: 5 };

export class Migration20261202100000_weekly_digest extends Migration {

  override name = 'Migration20261202100000_weekly_digest';

  override up(): void | Promise<void> {
    this.addSql(`update "nudge_setting" n set "settings" = jsonb_set(n."settings", '{weeklyReview,enabled}', 'false'::jsonb), "updated_at" = now() from "user_settings" s where s."user_id" = n."user_id" and not s."weekly_digest";`);
    this.addSql(`insert into "nudge_setting" ("user_id", "settings", "updated_at") select s."user_id", '${JSON.stringify(defaults)}'::jsonb, now() from "user_settings" s where not s."weekly_digest" and not exists (select 1 from "nudge_setting" n where n."user_id" = s."user_id");`);
    this.addSql(`delete from "nudge_run" r using "user_settings" s where r."owner_id" = s."user_id" and not s."weekly_digest" and r."kind" = 'weekly_review' and r."status" = 'queued' and r."trigger" = 'scheduled';`);
    this.addSql(`alter table "user_settings" drop column "weekly_digest";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "user_settings" add column "weekly_digest" boolean not null default true;`);
    this.addSql(`update "user_settings" s set "weekly_digest" = (n."settings" -> 'weeklyReview' ->> 'enabled')::boolean from "nudge_setting" n where n."user_id" = s."user_id";`);
  }

}
