import { Migration } from '@mikro-orm/migrations';

// The demo template's finished example rehearsal and weekly review are marked as
// samples, and a visitor's copies of the template's goals, memories and rehearsal remember the row
// they copy (sample_of, as chats do), so the template's ids keep naming them after the first write.
export class Migration20261127190000_demo_examples extends Migration {

  override name = 'Migration20261127190000_demo_examples';

  override up(): void | Promise<void> {
    this.addSql(`alter table "goal" add column "sample_of" int null;`);
    this.addSql(`create index "goal_sample_of_idx" on "goal" ("owner_id", "sample_of") where "sample_of" is not null;`);
    this.addSql(`alter table "memory" add column "sample_of" int null;`);
    this.addSql(`create index "memory_sample_of_idx" on "memory" ("owner_id", "sample_of") where "sample_of" is not null;`);
    this.addSql(`alter table "rehearsal" add column "is_sample" boolean not null default false;`);
    this.addSql(`alter table "rehearsal" add column "sample_of" int null;`);
    this.addSql(`create index "rehearsal_sample_of_idx" on "rehearsal" ("owner_id", "sample_of") where "sample_of" is not null;`);
    this.addSql(`alter table "nudge_run" add column "is_sample" boolean not null default false;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "nudge_run" drop column if exists "is_sample";`);
    this.addSql(`drop index if exists "rehearsal_sample_of_idx";`);
    this.addSql(`alter table "rehearsal" drop column if exists "sample_of";`);
    this.addSql(`alter table "rehearsal" drop column if exists "is_sample";`);
    this.addSql(`drop index if exists "memory_sample_of_idx";`);
    this.addSql(`alter table "memory" drop column if exists "sample_of";`);
    this.addSql(`drop index if exists "goal_sample_of_idx";`);
    this.addSql(`alter table "goal" drop column if exists "sample_of";`);
  }

}
