import { Migration } from '@mikro-orm/migrations';

export class Migration20261127161500_nudges extends Migration {

  override name = 'Migration20261127161500_nudges';

  override up(): void | Promise<void> {
    this.addSql(`create table "nudge_setting" ("user_id" int not null, "settings" jsonb not null, "updated_at" timestamptz not null, constraint "nudge_setting_pkey" primary key ("user_id"));`);
    this.addSql(`alter table "nudge_setting" add constraint "nudge_setting_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade;`);

    this.addSql(`create table "nudge_run" ("id" serial primary key, "owner_id" int not null, "kind" text not null, "status" text not null default 'queued', "trigger" text not null, "channels" jsonb not null, "reason" varchar(500) null, "chat_id" int null, "due_at" timestamptz not null, "locked_until" timestamptz null, "attempts" int not null default 0, "event_id" varchar(512) null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "nudge_run_owner_idx" on "nudge_run" ("owner_id", "id");`);
    this.addSql(`create index "nudge_run_due_idx" on "nudge_run" ("due_at") where "status" = 'queued';`);
    // One planned (scheduled, still queued) weekly review per user, and one brief per meeting:
    // instances that plan at once cannot plan either twice.
    this.addSql(`create unique index "nudge_run_one_planned" on "nudge_run" ("owner_id", "kind") where "status" = 'queued' and "trigger" = 'scheduled' and "kind" = 'weekly_review';`);
    this.addSql(`create unique index "nudge_run_one_brief" on "nudge_run" ("owner_id", "event_id") where "event_id" is not null;`);
    this.addSql(`alter table "nudge_run" add constraint "nudge_run_owner_id_foreign" foreign key ("owner_id") references "app_user" ("id") on delete cascade;`);
    this.addSql(`alter table "nudge_run" add constraint "nudge_run_chat_id_foreign" foreign key ("chat_id") references "chat" ("id") on delete set null;`);
    this.addSql(`alter table "nudge_run" add constraint "nudge_run_kind_check" check ("kind" in ('weekly_review', 'meeting_brief'));`);
    this.addSql(`alter table "nudge_run" add constraint "nudge_run_status_check" check ("status" in ('queued', 'sent', 'skipped', 'failed'));`);
    this.addSql(`alter table "nudge_run" add constraint "nudge_run_trigger_check" check ("trigger" in ('scheduled', 'manual'));`);

    this.addSql(`create table "push_subscription" ("id" serial primary key, "owner_id" int not null, "endpoint" varchar(1000) not null, "p256dh" varchar(200) not null, "auth" varchar(100) not null, "created_at" timestamptz not null);`);
    this.addSql(`create index "push_subscription_owner_idx" on "push_subscription" ("owner_id");`);
    this.addSql(`alter table "push_subscription" add constraint "push_subscription_endpoint_unique" unique ("endpoint");`);
    this.addSql(`alter table "push_subscription" add constraint "push_subscription_owner_id_foreign" foreign key ("owner_id") references "app_user" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "push_subscription" cascade;`);
    this.addSql(`drop table if exists "nudge_run" cascade;`);
    this.addSql(`drop table if exists "nudge_setting" cascade;`);
  }

}
