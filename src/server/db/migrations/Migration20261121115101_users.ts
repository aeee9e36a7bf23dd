import { Migration } from '@mikro-orm/migrations';

export class Migration20261121115101 extends Migration {

  override name = 'Migration20261121115101';

  override up(): void | Promise<void> {
    this.addSql(`create table "app_user" ("id" serial primary key, "username" varchar(64) not null, "username_key" varchar(64) not null, "password_hash" varchar(255) null, "full_name" varchar(100) not null, "job_title" varchar(100) null, "company" varchar(100) null, "is_demo" boolean not null default false, "created_at" timestamptz not null);`);
    this.addSql(`alter table "app_user" add constraint "app_user_username_key_unique" unique ("username_key");`);
    // The demo account is no longer written here: the server creates it at start in demo mode
    // only (src/server/features/auth/demoAccount.ts).
  }

}
