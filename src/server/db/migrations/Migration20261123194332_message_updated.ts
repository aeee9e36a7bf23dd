import { Migration } from '@mikro-orm/migrations';

export class Migration20261123194332_message_updated extends Migration {

  override name = 'Migration20261123194332_message_updated';

  override up(): void | Promise<void> {
    // Existing rows take the migration's time; only replies still 'streaming' read it (as orphaned).
    this.addSql(`alter table "message" add "updated_at" timestamptz not null default current_timestamp;`);
    this.addSql(`create index "message_streaming_idx" on "message" ("chat_id") where "status" = 'streaming';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "message_streaming_idx";`);
    this.addSql(`alter table "message" drop column "updated_at";`);
  }

}
