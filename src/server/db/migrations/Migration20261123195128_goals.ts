import { Migration } from '@mikro-orm/migrations';

export class Migration20261123195128_goals extends Migration {

  override name = 'Migration20261123195128_goals';

  override up(): void | Promise<void> {
    this.addSql(`create table "goal" ("id" serial primary key, "owner_id" int not null, "chat_id" int null, "framework" text not null, "title" varchar(200) not null, "due_date" varchar(10) not null, "cadence" text not null default 'weekly', "next_reminder_at" timestamptz null, "done_at" timestamptz null, "coach_asked_at" timestamptz null, "coach_asked_chat_id" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "goal_owner_idx" on "goal" ("owner_id");`);
    this.addSql(`create index "goal_next_reminder_idx" on "goal" ("next_reminder_at");`);

    this.addSql(`create table "key_result" ("id" serial primary key, "goal_id" int not null, "position" int not null, "title" varchar(200) not null, "start" double precision not null, "target" double precision not null, "unit" varchar(40) not null default '');`);
    this.addSql(`create index "key_result_goal_idx" on "key_result" ("goal_id");`);

    this.addSql(`create table "check_in" ("id" serial primary key, "key_result_id" int not null, "value" double precision not null, "note" varchar(500) null, "created_at" timestamptz not null);`);
    this.addSql(`create index "check_in_key_result_idx" on "check_in" ("key_result_id", "created_at");`);

    this.addSql(`create table "goal_reminder" ("id" serial primary key, "owner_id" int not null, "goal_id" int not null, "created_at" timestamptz not null, "seen_at" timestamptz null);`);
    this.addSql(`create index "goal_reminder_unseen_idx" on "goal_reminder" ("owner_id", "seen_at");`);

    this.addSql(`alter table "goal" add constraint "goal_owner_id_foreign" foreign key ("owner_id") references "app_user" ("id") on delete cascade;`);
    this.addSql(`alter table "goal" add constraint "goal_chat_id_foreign" foreign key ("chat_id") references "chat" ("id") on delete set null;`);
    this.addSql(`alter table "goal" add constraint "goal_coach_asked_chat_id_foreign" foreign key ("coach_asked_chat_id") references "chat" ("id") on delete set null;`);
    this.addSql(`alter table "goal" add constraint "goal_framework_check" check ("framework" in ('SMART', 'OKR', 'GROW'));`);
    this.addSql(`alter table "goal" add constraint "goal_cadence_check" check ("cadence" in ('weekly', 'weekly_call', 'off'));`);

    this.addSql(`alter table "key_result" add constraint "key_result_goal_id_foreign" foreign key ("goal_id") references "goal" ("id") on delete cascade;`);

    this.addSql(`alter table "check_in" add constraint "check_in_key_result_id_foreign" foreign key ("key_result_id") references "key_result" ("id") on delete cascade;`);

    this.addSql(`alter table "goal_reminder" add constraint "goal_reminder_owner_id_foreign" foreign key ("owner_id") references "app_user" ("id") on delete cascade;`);
    this.addSql(`alter table "goal_reminder" add constraint "goal_reminder_goal_id_foreign" foreign key ("goal_id") references "goal" ("id") on delete cascade;`);

  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "goal_reminder" cascade;`);
    this.addSql(`drop table if exists "check_in" cascade;`);
    this.addSql(`drop table if exists "key_result" cascade;`);
    this.addSql(`drop table if exists "goal" cascade;`);
  }

}
