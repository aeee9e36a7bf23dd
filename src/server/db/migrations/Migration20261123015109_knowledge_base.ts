import { Migration } from '@mikro-orm/migrations';

export class Migration20261123015109 extends Migration {

  override name = 'Migration20261123015109';

  override up(): void | Promise<void> {
    this.addSql(`create table "knowledge_base" ("user_id" int not null, "use_knowledge_base" boolean not null default false, "full_name" varchar(100) not null, "job_title" varchar(100) not null, "company" varchar(100) not null, "department" varchar(100) not null default '', "team" text not null default '', "manager" varchar(100) not null default '', "direct_reports" int null, "stakeholders" text not null default '', "email_tone" text null, "signature_style" text not null default '', "writing_examples" text not null default '', "coach_notes" text not null default '', "updated_at" timestamptz not null, primary key ("user_id"));`);

    this.addSql(`alter table "chat" add "is_temporary" boolean not null default false;`);

    this.addSql(`alter table "knowledge_base" add constraint "knowledge_base_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "knowledge_base" add constraint "knowledge_base_email_tone_check" check ("email_tone" in ('Formal', 'Friendly', 'Assertive', 'Humble'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "knowledge_base" cascade;`);

    this.addSql(`alter table "chat" drop column "is_temporary";`);
  }

}
