import { Migration } from '@mikro-orm/migrations';

// Every request of a demo visitor without a session reads the demo account (`is_demo`), and guest
// spaces make app_user grow with every visitor who writes: a partial index keeps that
// read from scanning the table.
export class Migration20261126150000_demo_user_index extends Migration {

  override name = 'Migration20261126150000_demo_user_index';

  override up(): void | Promise<void> {
    this.addSql(`create index "app_user_demo_idx" on "app_user" ("id") where "is_demo";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "app_user_demo_idx";`);
  }

}
