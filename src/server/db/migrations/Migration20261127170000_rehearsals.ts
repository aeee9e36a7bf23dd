import { Migration } from '@mikro-orm/migrations';

// Rehearsals: the set-up of a practised conversation, its chat and its report.
export class Migration20261127170000_rehearsals extends Migration {

  override name = 'Migration20261127170000_rehearsals';

  override up(): void | Promise<void> {
    this.addSql(`alter table "chat" add column "is_rehearsal" boolean not null default false;`);
    this.addSql(`create table "rehearsal" ("id" serial primary key, "owner_id" int not null, "chat_id" int not null, "counterpart_name" varchar(100) not null, "counterpart_role" varchar(200) null, "counterpart_relationship" varchar(200) null, "counterpart_email" varchar(320) null, "situation" text not null, "goal" varchar(500) not null, "difficulty" text not null, "meeting_id" varchar(400) null, "retry_of" int null, "report" jsonb null, "report_message_ids" jsonb null, "created_at" timestamptz not null);`);
    this.addSql(`create index "rehearsal_owner_idx" on "rehearsal" ("owner_id", "created_at");`);
    this.addSql(`alter table "rehearsal" add constraint "rehearsal_chat_unique" unique ("chat_id");`);
    this.addSql(`alter table "rehearsal" add constraint "rehearsal_owner_id_foreign" foreign key ("owner_id") references "app_user" ("id") on delete cascade;`);
    this.addSql(`alter table "rehearsal" add constraint "rehearsal_chat_id_foreign" foreign key ("chat_id") references "chat" ("id") on delete cascade;`);
    this.addSql(`alter table "rehearsal" add constraint "rehearsal_difficulty_check" check ("difficulty" in ('supportive', 'realistic', 'tough'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "rehearsal" cascade;`);
    this.addSql(`alter table "chat" drop column if exists "is_rehearsal";`);
  }

}
