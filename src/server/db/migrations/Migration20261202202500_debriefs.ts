import { Migration } from '@mikro-orm/migrations';

// Debriefs of real meetings: the numbers computed from the transcript, the coach's moments, and
// the rehearsed behaviours seen (the transcript itself is not stored).
export class Migration20261202202500_debriefs extends Migration {

  override name = 'Migration20261202202500_debriefs';

  override up(): void | Promise<void> {
    this.addSql(`create table "debrief" ("id" serial primary key, "owner_id" int not null, "event_id" varchar(512) not null, "subject" varchar(400) not null, "start_at" timestamptz not null, "end_at" timestamptz not null, "chat_id" int null, "report" jsonb not null, "coach" jsonb not null, "rehearsed" jsonb null, "is_sample" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "debrief" add constraint "debrief_owner_event_unique" unique ("owner_id", "event_id");`);
    this.addSql(`create index "debrief_owner_start_idx" on "debrief" ("owner_id", "start_at");`);
    this.addSql(`alter table "debrief" add constraint "debrief_owner_id_foreign" foreign key ("owner_id") references "app_user" ("id") on delete cascade;`);
    this.addSql(`alter table "debrief" add constraint "debrief_chat_id_foreign" foreign key ("chat_id") references "chat" ("id") on delete set null;`);
    this.addSql(`create table "debrief_setting" ("id" serial primary key, "owner_id" int not null, "automatic" boolean not null default false, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "debrief_setting" add constraint "debrief_setting_owner_unique" unique ("owner_id");`);
    this.addSql(`alter table "debrief_setting" add constraint "debrief_setting_owner_id_foreign" foreign key ("owner_id") references "app_user" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "debrief_setting" cascade;`);
    this.addSql(`drop table if exists "debrief" cascade;`);
  }

}
