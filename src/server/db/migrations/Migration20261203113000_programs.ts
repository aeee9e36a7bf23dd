import { Migration } from '@mikro-orm/migrations';

// Coaching programs an admin starts for a group or a department, and their nudges (a nudge kind).
export class Migration20261203113000_programs extends Migration {

  override name = 'Migration20261203113000_programs';

  override up(): void | Promise<void> {
    this.addSql(`create table "program" ("id" serial primary key, "organisation_id" int not null, "name" varchar(120) not null, "focus" varchar(1000) not null, "group_id" varchar(36) null, "department" varchar(256) null, "weeks" int not null, "cadence" text not null, "starts_on" date not null, "created_by" int null, "created_at" timestamptz not null, "ended_at" timestamptz null);`);
    this.addSql(`alter table "program" add constraint "program_cadence_check" check ("cadence" in ('weekly', 'fortnightly', 'off'));`);
    this.addSql(`alter table "program" add constraint "program_organisation_id_foreign" foreign key ("organisation_id") references "organisation" ("id") on delete cascade;`);
    this.addSql(`alter table "program" add constraint "program_group_id_foreign" foreign key ("group_id") references "scim_group" ("id") on delete set null;`);
    this.addSql(`create index "program_organisation_idx" on "program" ("organisation_id");`);
    this.addSql(`create table "program_setting" ("id" serial primary key, "owner_id" int not null, "nudges" boolean not null default true, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "program_setting" add constraint "program_setting_owner_unique" unique ("owner_id");`);
    this.addSql(`alter table "program_setting" add constraint "program_setting_owner_id_foreign" foreign key ("owner_id") references "app_user" ("id") on delete cascade;`);
    this.addSql(`alter table "nudge_run" drop constraint if exists "nudge_run_kind_check";`);
    this.addSql(`alter table "nudge_run" add constraint "nudge_run_kind_check" check ("kind" in ('weekly_review', 'meeting_brief', 'meeting_debrief', 'program'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`delete from "nudge_run" where "kind" = 'program';`);
    this.addSql(`alter table "nudge_run" drop constraint if exists "nudge_run_kind_check";`);
    this.addSql(`alter table "nudge_run" add constraint "nudge_run_kind_check" check ("kind" in ('weekly_review', 'meeting_brief', 'meeting_debrief'));`);
    this.addSql(`drop table if exists "program_setting" cascade;`);
    this.addSql(`drop table if exists "program" cascade;`);
  }

}
