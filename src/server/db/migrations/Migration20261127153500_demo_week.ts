import { Migration } from '@mikro-orm/migrations';

// The demo's sample goals and memories are marked as samples (the template's, and a
// visitor's copies of them), so every screen can say so and the template's can be dated anew.
// An agenda saved into a meeting that was never prepared is recorded too: a meeting_prep row
// without a prep chat, which a later Prepare completes.
export class Migration20261127153500_demo_week extends Migration {

  override name = 'Migration20261127153500_demo_week';

  override up(): void | Promise<void> {
    this.addSql(`alter table "goal" add column "is_sample" boolean not null default false;`);
    this.addSql(`alter table "memory" add column "is_sample" boolean not null default false;`);
    this.addSql(`alter table "meeting_prep" alter column "chat_id" drop not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`delete from "meeting_prep" where "chat_id" is null;`);
    this.addSql(`alter table "meeting_prep" alter column "chat_id" set not null;`);
    this.addSql(`alter table "memory" drop column if exists "is_sample";`);
    this.addSql(`alter table "goal" drop column if exists "is_sample";`);
  }

}
