import { Migration } from '@mikro-orm/migrations';

// Every demo visitor who writes gets a private guest account (is_guest), deleted after
// DEMO_GUEST_IDLE_HOURS unused; an API key may carry an expiry.
export class Migration20261126043000_guest_spaces extends Migration {

  override name = 'Migration20261126043000_guest_spaces';

  override up(): void | Promise<void> {
    this.addSql(`alter table "app_user" add "is_guest" boolean not null default false;`);
    this.addSql(`update "app_user" set "is_guest" = true where "password_hash" is null and "is_demo" = false;`);
    this.addSql(`create index "app_user_guest_idx" on "app_user" ("created_at") where "is_guest";`);
    this.addSql(`alter table "api_key" add "expires_at" timestamptz null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "api_key" drop column "expires_at";`);
    this.addSql(`drop index "app_user_guest_idx";`);
    this.addSql(`alter table "app_user" drop column "is_guest";`);
  }

}
