import { Migration } from '@mikro-orm/migrations';

// The admin console: the audit log of what admins (and the provisioning) did, and on each account
// when an admin's CSV invited it and when it was last seen (the member states invited, active,
// inactive). The actor of an audit row is a plain id, no foreign key: the row outlives the account.
export class Migration20261203110000_admin_audit extends Migration {

  override name = 'Migration20261203110000_admin_audit';

  override up(): void | Promise<void> {
    this.addSql(`create table "admin_audit_event" ("id" serial primary key, "organisation_id" int not null, "actor_kind" text not null default 'admin', "actor_user_id" int null, "actor_name" varchar(200) not null, "action" text not null, "target" varchar(200) null, "changes" jsonb null, "created_at" timestamptz not null);`);
    this.addSql(`alter table "admin_audit_event" add constraint "admin_audit_event_actor_kind_check" check ("actor_kind" in ('admin', 'provisioning'));`);
    this.addSql(`alter table "admin_audit_event" add constraint "admin_audit_event_organisation_id_foreign" foreign key ("organisation_id") references "organisation" ("id") on delete cascade;`);
    this.addSql(`create index "admin_audit_event_organisation_idx" on "admin_audit_event" ("organisation_id", "id");`);

    this.addSql(`alter table "app_user" add column "invited_at" timestamptz null, add column "last_seen_at" timestamptz null;`);
    // What the accounts a database holds were last seen at: their latest session, else (an account
    // that signed in once: registered, or linked to Microsoft) when it was made. An account
    // provisioning made that never signed in stays unseen (invited).
    this.addSql(`update "app_user" as u set "last_seen_at" = coalesce((select max(s."last_seen_at") from "auth_session" as s where s."user_id" = u."id"), case when u."scim_user_name_key" is null or u."entra_object_id" is not null or u."password_hash" is not null then u."created_at" end);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "app_user" drop column if exists "invited_at", drop column if exists "last_seen_at";`);
    this.addSql(`drop table if exists "admin_audit_event" cascade;`);
  }

}
