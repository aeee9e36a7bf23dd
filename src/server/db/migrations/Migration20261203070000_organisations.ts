import { Migration } from '@mikro-orm/migrations';

// The organisation a deployment serves (one row, id 1, which every existing account joins), the
// members' roles and provisioning state, the identity provider's tokens (hashed) and its groups.
export class Migration20261203070000_organisations extends Migration {

  override name = 'Migration20261203070000_organisations';

  override up(): void | Promise<void> {
    this.addSql(`create table "organisation" ("id" serial primary key, "name" varchar(200) not null, "seats" int null, "retention" text not null default 'keep', "created_at" timestamptz not null);`);
    this.addSql(`alter table "organisation" add constraint "organisation_retention_check" check ("retention" in ('keep', 'delete'));`);
    // The existing accounts join the deployment's organisation (id 1), made here when there are
    // any; a new database stays empty (db:move moves into an empty one) and the first start makes it.
    this.addSql(`insert into "organisation" ("id", "name", "created_at") select 1, 'Organisation', now() where exists (select 1 from "app_user");`);
    this.addSql(`select setval(pg_get_serial_sequence('organisation', 'id'), 1);`);

    this.addSql(`alter table "app_user" add column "organisation_id" int not null default 1, add column "org_role" text not null default 'member', add column "active" boolean not null default true, add column "deprovisioned_at" timestamptz null, add column "email" varchar(320) null, add column "scim_user_name" varchar(320) null, add column "scim_user_name_key" varchar(320) null, add column "scim_external_id" varchar(320) null, add column "scim_profile" jsonb null;`);
    this.addSql(`alter table "app_user" add constraint "app_user_org_role_check" check ("org_role" in ('member', 'admin'));`);
    this.addSql(`alter table "app_user" add constraint "app_user_organisation_id_foreign" foreign key ("organisation_id") references "organisation" ("id");`);
    this.addSql(`create unique index "app_user_scim_user_name_unique" on "app_user" ("organisation_id", "scim_user_name_key") where "scim_user_name_key" is not null;`);
    this.addSql(`create index "app_user_scim_external_id_idx" on "app_user" ("organisation_id", "scim_external_id") where "scim_external_id" is not null;`);
    this.addSql(`create index "app_user_email_idx" on "app_user" (lower("email")) where "email" is not null;`);

    this.addSql(`create table "scim_token" ("id" serial primary key, "organisation_id" int not null, "prefix" varchar(16) not null, "token_hash" varchar(64) not null, "created_at" timestamptz not null, "last_used_at" timestamptz null, "revoked_at" timestamptz null);`);
    this.addSql(`alter table "scim_token" add constraint "scim_token_token_hash_unique" unique ("token_hash");`);
    this.addSql(`alter table "scim_token" add constraint "scim_token_organisation_id_foreign" foreign key ("organisation_id") references "organisation" ("id") on delete cascade;`);

    this.addSql(`create table "scim_group" ("id" varchar(36) primary key, "organisation_id" int not null, "display_name" varchar(256) not null, "external_id" varchar(320) null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "scim_group" add constraint "scim_group_organisation_id_foreign" foreign key ("organisation_id") references "organisation" ("id") on delete cascade;`);
    this.addSql(`create index "scim_group_display_name_idx" on "scim_group" ("organisation_id", lower("display_name"));`);

    this.addSql(`create table "scim_group_member" ("id" serial primary key, "group_id" varchar(36) not null, "user_id" int not null);`);
    this.addSql(`alter table "scim_group_member" add constraint "scim_group_member_unique" unique ("group_id", "user_id");`);
    this.addSql(`create index "scim_group_member_user_idx" on "scim_group_member" ("user_id");`);
    this.addSql(`alter table "scim_group_member" add constraint "scim_group_member_group_id_foreign" foreign key ("group_id") references "scim_group" ("id") on delete cascade;`);
    this.addSql(`alter table "scim_group_member" add constraint "scim_group_member_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "scim_group_member" cascade;`);
    this.addSql(`drop table if exists "scim_group" cascade;`);
    this.addSql(`drop table if exists "scim_token" cascade;`);
    this.addSql(`drop index if exists "app_user_email_idx";`);
    this.addSql(`drop index if exists "app_user_scim_external_id_idx";`);
    this.addSql(`drop index if exists "app_user_scim_user_name_unique";`);
    this.addSql(`alter table "app_user" drop constraint if exists "app_user_organisation_id_foreign", drop constraint if exists "app_user_org_role_check";`);
    this.addSql(`alter table "app_user" drop column if exists "organisation_id", drop column if exists "org_role", drop column if exists "active", drop column if exists "deprovisioned_at", drop column if exists "email", drop column if exists "scim_user_name", drop column if exists "scim_user_name_key", drop column if exists "scim_external_id", drop column if exists "scim_profile";`);
    this.addSql(`drop table if exists "organisation" cascade;`);
  }

}
