import { Migration } from '@mikro-orm/migrations';

// Spent single-use tokens (a voice turn's keep token), kept until they would have expired: on the
// embedded database they were counted in memory, and a restart let a spent token be used again.
export class Migration20261127163000_spent_tokens extends Migration {

  override name = 'Migration20261127163000_spent_tokens';

  override up(): void | Promise<void> {
    this.addSql(`create table "spent_token" ("id" varchar(100) not null, "expires_at" timestamptz not null, constraint "spent_token_pkey" primary key ("id"));`);
    this.addSql(`create index "spent_token_expires_at_index" on "spent_token" ("expires_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "spent_token" cascade;`);
  }

}
