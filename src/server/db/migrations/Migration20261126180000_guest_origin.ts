import { Migration } from '@mikro-orm/migrations';

// Where a guest account came from: 'demo' (a demo visitor's private space, guestAccount.ts) or
// 'access-key' (the access-key gate, checkAccess.ts). A server started with demo mode off ends
// the sessions of demo guests (their anonymous way in is closed) and keeps access-key guests.
// Guests made before this column are told apart by how each path named them: a demo guest is
// 'guest-' and 16 hex digits, an access-key guest 'guest-' and 12.
export class Migration20261126180000_guest_origin extends Migration {

  override name = 'Migration20261126180000_guest_origin';

  override up(): void | Promise<void> {
    this.addSql(`alter table "app_user" add column "guest_origin" text null;`);
    this.addSql(`update "app_user" set "guest_origin" = case when length("username") = 22 then 'demo' else 'access-key' end where "is_guest";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "app_user" drop column if exists "guest_origin";`);
  }

}
