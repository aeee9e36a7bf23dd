import { Migration } from '@mikro-orm/migrations';

// Meetings prepared with the coach, Graph change-notification subscriptions for the
// calendar, and the time zone the calendar is read in (a profile setting, default UTC).
export class Migration20261126043000_meetings extends Migration {

  override name = 'Migration20261126043000_meetings';

  override up(): void | Promise<void> {
    this.addSql(`create table "meeting_prep" ("id" serial primary key, "owner_id" int not null, "chat_id" int not null, "event_id" varchar(512) not null, "subject" varchar(400) not null, "start_at" timestamptz not null, "end_at" timestamptz not null, "invite" jsonb not null, "agenda_saved_at" timestamptz null, "agenda_emailed_at" timestamptz null, "reflected_at" timestamptz null, "created_at" timestamptz not null);`);
    this.addSql(`alter table "meeting_prep" add constraint "meeting_prep_owner_event_unique" unique ("owner_id", "event_id");`);
    this.addSql(`alter table "meeting_prep" add constraint "meeting_prep_chat_id_unique" unique ("chat_id");`);
    this.addSql(`alter table "meeting_prep" add constraint "meeting_prep_owner_id_foreign" foreign key ("owner_id") references "app_user" ("id") on delete cascade;`);
    this.addSql(`alter table "meeting_prep" add constraint "meeting_prep_chat_id_foreign" foreign key ("chat_id") references "chat" ("id") on delete cascade;`);

    this.addSql(`create table "calendar_subscription" ("id" serial primary key, "user_id" int not null, "graph_subscription_id" varchar(200) not null, "client_state_hash" varchar(64) not null, "expires_at" timestamptz not null, "changed_at" timestamptz null, "created_at" timestamptz not null);`);
    this.addSql(`alter table "calendar_subscription" add constraint "calendar_subscription_user_id_unique" unique ("user_id");`);
    this.addSql(`alter table "calendar_subscription" add constraint "calendar_subscription_graph_subscription_id_unique" unique ("graph_subscription_id");`);
    this.addSql(`create index "calendar_subscription_expires_idx" on "calendar_subscription" ("expires_at");`);
    this.addSql(`alter table "calendar_subscription" add constraint "calendar_subscription_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade;`);

    this.addSql(`alter table "user_settings" add "time_zone" varchar(64) null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "user_settings" drop column "time_zone";`);
    this.addSql(`drop table if exists "calendar_subscription" cascade;`);
    this.addSql(`drop table if exists "meeting_prep" cascade;`);
  }

}
