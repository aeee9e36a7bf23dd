import { Migration } from '@mikro-orm/migrations';

// The pending SMS code of a phone verification, one per user (a new code replaces the old).
export class Migration20261126042300_phone_verification extends Migration {

  override name = 'Migration20261126042300_phone_verification';

  override up(): void | Promise<void> {
    this.addSql(`create table "phone_verification" ("user_id" int not null, "phone" varchar(40) not null, "code_hash" varchar(64) not null, "attempts" int not null default 0, "expires_at" timestamptz not null, "created_at" timestamptz not null, constraint "phone_verification_pkey" primary key ("user_id"));`);
    this.addSql(`alter table "phone_verification" add constraint "phone_verification_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "phone_verification" cascade;`);
  }

}
