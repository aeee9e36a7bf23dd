import { Migration } from '@mikro-orm/migrations';

export class Migration20261123014312_writing_style extends Migration {

  override name = 'Migration20261123014312_writing_style';

  override up(): void | Promise<void> {
    this.addSql(`create table "writing_style_profile" ("user_id" int not null, "tone" text null, "tone_source" text not null, "common_phrases" jsonb not null, "greeting" text null, "sign_off" text null, "structure" text null, "length" text null, "emails_analyzed" int not null, "last_updated" timestamptz not null, primary key ("user_id"));`);

    this.addSql(`alter table "writing_style_profile" add constraint "writing_style_profile_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "writing_style_profile" add constraint "writing_style_profile_tone_source_check" check ("tone_source" in ('model', 'markers'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "writing_style_profile" cascade;`);
  }

}
