import { Migration } from '@mikro-orm/migrations';

// The analytics' breakdowns (by department, by manager): each group's counts of a week that has
// ended, counted once and kept under the fingerprint of the members they were counted over, as
// organisation_week keeps the whole organisation's. One row per organisation, breakdown and week;
// "cells" maps each group's fingerprint to its counts.
export class Migration20261207030000_breakdown_weeks extends Migration {

  override name = 'Migration20261207030000_breakdown_weeks';

  override up(): void | Promise<void> {
    this.addSql(`create table "organisation_breakdown_week" ("organisation_id" int not null, "grouping" text not null, "week" date not null, "cells" jsonb not null, "computed_at" timestamptz not null, primary key ("organisation_id", "grouping", "week"));`);
    this.addSql(`alter table "organisation_breakdown_week" add constraint "organisation_breakdown_week_grouping_check" check ("grouping" in ('department', 'manager'));`);
    this.addSql(`alter table "organisation_breakdown_week" add constraint "organisation_breakdown_week_organisation_id_foreign" foreign key ("organisation_id") references "organisation" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "organisation_breakdown_week" cascade;`);
  }

}
