import { Migration } from '@mikro-orm/migrations';

export class Migration20261121115734 extends Migration {

  override name = 'Migration20261121115734';

  override up(): void | Promise<void> {
    this.addSql(`create table "user_settings" ("user_id" int not null, "email" varchar(254) null, "phone" varchar(16) null, "email_notifications" boolean not null default true, "push_notifications" boolean not null default false, "weekly_digest" boolean not null default true, "coaching_suggestions" boolean not null default true, "data_retention" text not null default '90', "share_anonymous_data" boolean not null default false, "store_chat_history" boolean not null default true, "updated_at" timestamptz not null, primary key ("user_id"));`);

    this.addSql(`alter table "user_settings" add constraint "user_settings_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "user_settings" add constraint "user_settings_data_retention_check" check ("data_retention" in ('30', '90', '180', '365', 'forever'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "user_settings" cascade;`);
  }

}
