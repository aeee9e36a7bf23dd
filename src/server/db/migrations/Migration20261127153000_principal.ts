import { Migration } from '@mikro-orm/migrations';

// Who a request acts as (docs/architecture.md, "Who a request acts as"):
// - an API key reaches only the scopes chosen when it was made; keys made before scopes existed
//   keep what they could always do in a chat client: `chat`;
// - a demo visitor's guest space remembers which sample chat each of its copies was made from, so
//   the samples' ids (/app?chat=1, GET /api/chats/1/messages) keep answering with the visitor's
//   copy after their first write. Copies made before this column are matched by title.
export class Migration20261127153000_principal extends Migration {

  override name = 'Migration20261127153000_principal';

  override up(): void | Promise<void> {
    this.addSql(`alter table "api_key" add column "scopes" text[] not null default '{chat}';`);
    this.addSql(`alter table "chat" add column "sample_of" int null;`);
    this.addSql(`create index "chat_sample_of_idx" on "chat" ("owner_id", "sample_of") where "sample_of" is not null;`);
    this.addSql(`update "chat" c set "sample_of" = t."id"
      from "app_user" g, "chat" t join "app_user" d on d."id" = t."owner_id" and d."is_demo"
      where g."id" = c."owner_id" and g."is_guest" and g."guest_origin" = 'demo' and t."title" = c."title" and c."created_at" = t."created_at";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "chat_sample_of_idx";`);
    this.addSql(`alter table "chat" drop column if exists "sample_of";`);
    this.addSql(`alter table "api_key" drop column if exists "scopes";`);
  }

}
