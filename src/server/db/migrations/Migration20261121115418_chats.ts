import { Migration } from '@mikro-orm/migrations';

export class Migration20261121115418 extends Migration {

  override name = 'Migration20261121115418';

  override up(): void | Promise<void> {
    this.addSql(`create table "chat" ("id" serial primary key, "owner_id" int not null, "title" varchar(200) not null default 'New Chat', "is_pinned" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "chat_owner_list_idx" on "chat" ("owner_id", "is_pinned", "updated_at");`);

    this.addSql(`create table "message" ("id" serial primary key, "chat_id" int not null, "role" text not null, "content" text not null default '', "status" text not null default 'complete', "created_at" timestamptz not null);`);
    this.addSql(`create index "message_chat_page_idx" on "message" ("chat_id", "id");`);

    this.addSql(`alter table "chat" add constraint "chat_owner_id_foreign" foreign key ("owner_id") references "app_user" ("id") on delete cascade;`);

    this.addSql(`alter table "message" add constraint "message_chat_id_foreign" foreign key ("chat_id") references "chat" ("id") on delete cascade;`);
    this.addSql(`alter table "message" add constraint "message_role_check" check ("role" in ('system', 'user', 'assistant'));`);
    this.addSql(`alter table "message" add constraint "message_status_check" check ("status" in ('streaming', 'complete', 'stopped', 'failed'));`);
    // The demo user's sample chats are no longer written here: the server creates them at start
    // in demo mode only (src/server/features/auth/demoAccount.ts). Databases that ran the old
    // version keep theirs until a start with DEMO_MODE off removes them.
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "message" drop constraint "message_chat_id_foreign";`);

    this.addSql(`drop table if exists "chat" cascade;`);
    this.addSql(`drop table if exists "message" cascade;`);
  }

}
