import { Migration } from '@mikro-orm/migrations';

export class Migration20261126043217_security_events extends Migration {

  override name = 'Migration20261126043217_security_events';

  override up(): void | Promise<void> {
    this.addSql(`create table "security_event" ("id" serial primary key, "user_id" int not null, "kind" varchar(32) not null, "created_at" timestamptz not null, "address" varchar(64) null, "user_agent" varchar(512) null);`);
    this.addSql(`create index "security_event_user_id_idx" on "security_event" ("user_id", "id");`);

    this.addSql(`alter table "security_event" add constraint "security_event_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "security_event" cascade;`);
  }

}
