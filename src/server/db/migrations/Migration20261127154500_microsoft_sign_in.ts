import { Migration } from '@mikro-orm/migrations';

// Sign in with Microsoft: the Entra ID account a user signs in with, named by its tenant id and
// object id (never by its e-mail address, which a tenant can give to someone else). One Entra
// account belongs to at most one user; preferred_username is kept to show in Settings.
export class Migration20261127154500_microsoft_sign_in extends Migration {

  override name = 'Migration20261127154500_microsoft_sign_in';

  override up(): void | Promise<void> {
    this.addSql(`alter table "app_user" add column "entra_tenant_id" varchar(64) null, add column "entra_object_id" varchar(64) null, add column "entra_username" varchar(320) null;`);
    this.addSql(`create unique index "app_user_entra_account_unique" on "app_user" ("entra_tenant_id", "entra_object_id") where "entra_object_id" is not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "app_user_entra_account_unique";`);
    this.addSql(`alter table "app_user" drop column if exists "entra_tenant_id", drop column if exists "entra_object_id", drop column if exists "entra_username";`);
  }

}
