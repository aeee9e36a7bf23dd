import { Migration } from '@mikro-orm/migrations';

export class Migration20261123193746_api_keys extends Migration {

  override name = 'Migration20261123193746_api_keys';

  override up(): void | Promise<void> {
    this.addSql(`create table "api_key" ("id" serial primary key, "owner_id" int not null, "name" varchar(60) not null, "prefix" varchar(16) not null, "key_hash" varchar(64) not null, "created_at" timestamptz not null, "last_used_at" timestamptz null);`);
    this.addSql(`create index "api_key_owner_idx" on "api_key" ("owner_id");`);
    this.addSql(`alter table "api_key" add constraint "api_key_key_hash_unique" unique ("key_hash");`);

    this.addSql(`alter table "api_key" add constraint "api_key_owner_id_foreign" foreign key ("owner_id") references "app_user" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "api_key" cascade;`);
  }

}
