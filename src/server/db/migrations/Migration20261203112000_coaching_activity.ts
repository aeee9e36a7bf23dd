import { Migration } from '@mikro-orm/migrations';

// What the organisation's analytics read: one row per member and week (Monday, UTC) of coaching,
// kept as the coach turns happen (features/coach/coachingActivity.ts), never the conversation:
// how many sessions of each kind, which frameworks and themes the coach recognised (bit sets of
// fixed labels), and the sessions counted (chat ids, so a session counts once a week). The
// existing conversations are counted in here by kind, without labels (none were recognised then).
export class Migration20261203112000_coaching_activity extends Migration {

  override name = 'Migration20261203112000_coaching_activity';

  override up(): void | Promise<void> {
    this.addSql(`create table "coaching_activity" ("id" serial primary key, "user_id" int not null, "organisation_id" int not null, "week" date not null, "chat_sessions" int not null default 0, "voice_sessions" int not null default 0, "phone_sessions" int not null default 0, "rehearsal_sessions" int not null default 0, "debrief_sessions" int not null default 0, "frameworks" int not null default 0, "themes" int not null default 0, "sessions" int[] not null default '{}');`);
    this.addSql(`alter table "coaching_activity" add constraint "coaching_activity_user_week_unique" unique ("user_id", "week");`);
    this.addSql(`alter table "coaching_activity" add constraint "coaching_activity_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade;`);
    this.addSql(`create index "coaching_activity_organisation_week_idx" on "coaching_activity" ("organisation_id", "week");`);
    // The organisation's figures of each week that has ended, counted once (they no longer change):
    // the analytics read these and count only the current week live.
    this.addSql(`create table "organisation_week" ("organisation_id" int not null, "week" date not null, "cells" jsonb not null, "computed_at" timestamptz not null, primary key ("organisation_id", "week"));`);
    this.addSql(`alter table "organisation_week" add constraint "organisation_week_organisation_id_foreign" foreign key ("organisation_id") references "organisation" ("id") on delete cascade;`);
    // The conversations so far, by the week of each user message: a debrief's chat, a rehearsal's,
    // a phone call's, else a written chat (a browser call left no mark of its own: it counts as one).
    this.addSql(`
      insert into "coaching_activity" ("user_id", "organisation_id", "week", "chat_sessions", "voice_sessions", "phone_sessions", "rehearsal_sessions", "debrief_sessions", "sessions")
      select s."user_id", s."organisation_id", s."week",
        count(*) filter (where s."kind" = 'chat'), count(*) filter (where s."kind" = 'voice'), count(*) filter (where s."kind" = 'phone'),
        count(*) filter (where s."kind" = 'rehearsal'), count(*) filter (where s."kind" = 'debrief'),
        array_agg(s."chat_id" order by s."chat_id")
      from (
        select distinct u."id" as "user_id", u."organisation_id", date_trunc('week', m."created_at" at time zone 'UTC')::date as "week", c."id" as "chat_id",
          case
            when exists (select 1 from "debrief" d where d."chat_id" = c."id") then 'debrief'
            when c."is_rehearsal" then 'rehearsal'
            when exists (select 1 from "phone_call" p where p."chat_id" = c."id") then 'phone'
            else 'chat'
          end as "kind"
        from "message" m
        join "chat" c on c."id" = m."chat_id"
        join "app_user" u on u."id" = c."owner_id"
        where m."role" = 'user' and not u."is_guest" and not u."is_demo" and c."sample_of" is null
      ) s
      group by s."user_id", s."organisation_id", s."week";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "organisation_week" cascade;`);
    this.addSql(`drop table if exists "coaching_activity" cascade;`);
  }

}
