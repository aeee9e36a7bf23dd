import { Migration } from '@mikro-orm/migrations';

// A profile phone starts unverified (a changed number is unverified again), and a caller
// who is not identified by an attested caller ID keys in a phone PIN (hashed like a password).
export class Migration20261126041500_phone_trust extends Migration {

  override name = 'Migration20261126041500_phone_trust';

  override up(): void | Promise<void> {
    this.addSql(`alter table "user_settings" add "phone_verified_at" timestamptz null, add "phone_pin_hash" varchar(255) null;`);
    this.addSql(`create index "user_settings_verified_phone_idx" on "user_settings" ("phone") where "phone_verified_at" is not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "user_settings_verified_phone_idx";`);
    this.addSql(`alter table "user_settings" drop column "phone_verified_at", drop column "phone_pin_hash";`);
  }

}
