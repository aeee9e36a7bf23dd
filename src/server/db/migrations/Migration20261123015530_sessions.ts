import { Migration } from '@mikro-orm/migrations';

export class Migration20261123015530_sessions extends Migration {

  override name = 'Migration20261123015530_sessions';

  override up(): void | Promise<void> {
    this.addSql(`create table "auth_session" ("id" varchar(64) not null, "user_id" int not null, "created_at" timestamptz not null, "last_seen_at" timestamptz not null, "expires_at" timestamptz not null, "user_agent" varchar(512) null, "address" varchar(64) null, primary key ("id"));`);
    this.addSql(`create index "auth_session_user_idx" on "auth_session" ("user_id");`);

    this.addSql(`alter table "auth_session" add constraint "auth_session_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "auth_session" cascade;`);
  }

}
