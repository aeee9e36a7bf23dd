import { Migration } from '@mikro-orm/migrations';

// Memories: what the coach remembers of a user, and whether it may. The full-text
// index on memory text is an expression index over the same expression the queries use
// (memoryContext.ts). The index over message content for search is NOT built here: the message
// table may be large, and a plain CREATE INDEX inside this (all-or-nothing) migration transaction
// would block every send while it builds. It is built CONCURRENTLY after start
// (features/search/messageSearchIndex.ts).
export class Migration20261126043000_memories extends Migration {

  override name = 'Migration20261126043000_memories';

  override up(): void | Promise<void> {
    this.addSql(`create table "memory" ("id" serial primary key, "owner_id" int not null, "text" varchar(500) not null, "kind" text not null default 'fact', "due_at" timestamptz null, "source_chat_id" int null, "source_message_id" int null, "asked_at" timestamptz null, "asked_chat_id" int null, "done_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "memory_owner_idx" on "memory" ("owner_id", "updated_at");`);
    this.addSql(`create index "memory_source_message_idx" on "memory" ("source_message_id");`);
    this.addSql(`create index "memory_text_fts_idx" on "memory" using gin (to_tsvector('english', "text"));`);
    this.addSql(`alter table "memory" add constraint "memory_owner_id_foreign" foreign key ("owner_id") references "app_user" ("id") on delete cascade;`);
    this.addSql(`alter table "memory" add constraint "memory_source_chat_id_foreign" foreign key ("source_chat_id") references "chat" ("id") on delete set null;`);
    this.addSql(`alter table "memory" add constraint "memory_asked_chat_id_foreign" foreign key ("asked_chat_id") references "chat" ("id") on delete set null;`);
    this.addSql(`alter table "memory" add constraint "memory_kind_check" check ("kind" in ('fact', 'preference', 'person', 'commitment'));`);

    this.addSql(`create table "memory_setting" ("user_id" int primary key, "enabled" boolean not null default true, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "memory_setting" add constraint "memory_setting_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "memory_setting" cascade;`);
    this.addSql(`drop table if exists "memory" cascade;`);
  }

}
