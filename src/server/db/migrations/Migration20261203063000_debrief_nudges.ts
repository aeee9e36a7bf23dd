import { Migration } from '@mikro-orm/migrations';

// An automatic debrief is a nudge too: its run carries the debrief's title to the user's channels
// (within the weekly cap and quiet hours); the debrief itself is already in the meeting's chat.
export class Migration20261203063000_debrief_nudges extends Migration {

  override name = 'Migration20261203063000_debrief_nudges';

  override up(): void | Promise<void> {
    this.addSql(`alter table "nudge_run" drop constraint if exists "nudge_run_kind_check";`);
    this.addSql(`alter table "nudge_run" add constraint "nudge_run_kind_check" check ("kind" in ('weekly_review', 'meeting_brief', 'meeting_debrief'));`);
    this.addSql(`alter table "nudge_run" add column "title" varchar(300) null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`delete from "nudge_run" where "kind" = 'meeting_debrief';`);
    this.addSql(`alter table "nudge_run" drop column "title";`);
    this.addSql(`alter table "nudge_run" drop constraint if exists "nudge_run_kind_check";`);
    this.addSql(`alter table "nudge_run" add constraint "nudge_run_kind_check" check ("kind" in ('weekly_review', 'meeting_brief'));`);
  }
}
