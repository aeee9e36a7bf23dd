import { Migration } from '@mikro-orm/migrations';

// A phone call's state on the server, keyed by Twilio's CallSid, so webhooks and
// the ConversationRelay socket are bound to it and a replay changes nothing.
export class Migration20261126043000_phone_call extends Migration {

  override name = 'Migration20261126043000_phone_call';

  override up(): void | Promise<void> {
    this.addSql(`create table "phone_call" ("id" serial primary key, "call_sid" varchar(64) not null, "owner_id" int null, "pin_user_id" int null, "pin_attempts" int not null default 0, "direction" varchar(20) not null, "chat_id" int null, "turns" int not null default 0, "relay_started_at" timestamptz null, "created_at" timestamptz not null);`);
    this.addSql(`alter table "phone_call" add constraint "phone_call_call_sid_unique" unique ("call_sid");`);
    this.addSql(`create index "phone_call_owner_idx" on "phone_call" ("owner_id");`);
    this.addSql(`alter table "phone_call" add constraint "phone_call_owner_id_foreign" foreign key ("owner_id") references "app_user" ("id") on delete cascade;`);
    this.addSql(`alter table "phone_call" add constraint "phone_call_pin_user_id_foreign" foreign key ("pin_user_id") references "app_user" ("id") on delete set null;`);
    this.addSql(`alter table "phone_call" add constraint "phone_call_chat_id_foreign" foreign key ("chat_id") references "chat" ("id") on delete set null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "phone_call" cascade;`);
  }

}
