import { Migration } from '@mikro-orm/migrations';

// The organisation's settings beyond seats and retention: the channels its members' nudges may use
// (all four by default, the app always), whether phone calls with the coach are allowed (yes), and
// the model region its members' coach answers from (none: OPENAI_BASE_URL).
export class Migration20261203111000_org_settings extends Migration {

  override name = 'Migration20261203111000_org_settings';

  override up(): void | Promise<void> {
    this.addSql(`alter table "organisation" add column "nudge_channels" jsonb not null default '["app","email","push","call"]', add column "phone_calls" boolean not null default true, add column "model_region" varchar(40) null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "organisation" drop column if exists "nudge_channels", drop column if exists "phone_calls", drop column if exists "model_region";`);
  }

}
