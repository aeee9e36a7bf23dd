import { Migration } from '@mikro-orm/migrations';

export class Migration20261123014820_microsoft extends Migration {

  override name = 'Migration20261123014820_microsoft';

  override up(): void | Promise<void> {
    this.addSql(`create table "microsoft_connection" ("id" serial primary key, "user_id" int not null, "service" text not null, "account_email" varchar(320) null, "key_id" varchar(32) not null, "access_token_sealed" text not null, "refresh_token_sealed" text null, "expires_at" timestamptz null, "needs_reconnect" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "microsoft_connection" add constraint "microsoft_connection_user_id_service_unique" unique ("user_id", "service");`);

    this.addSql(`alter table "microsoft_connection" add constraint "microsoft_connection_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade;`);
    this.addSql(`alter table "microsoft_connection" add constraint "microsoft_connection_service_check" check ("service" in ('email', 'calendar', 'teams'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "microsoft_connection" cascade;`);
  }

}
