import { Migration } from '@mikro-orm/migrations';

export class Migration20261121115418 extends Migration {

  override name = 'Migration20261121115418';

  override up(): void | Promise<void> {
    this.addSql(`create table "chat" ("id" serial primary key, "owner_id" int not null, "title" varchar(200) not null default 'New Chat', "is_pinned" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "chat_owner_list_idx" on "chat" ("owner_id", "is_pinned", "updated_at");`);

    this.addSql(`create table "message" ("id" serial primary key, "chat_id" int not null, "role" text not null, "content" text not null default '', "status" text not null default 'complete', "created_at" timestamptz not null);`);
    this.addSql(`create index "message_chat_page_idx" on "message" ("chat_id", "id");`);

    this.addSql(`alter table "chat" add constraint "chat_owner_id_foreign" foreign key ("owner_id") references "app_user" ("id") on delete cascade;`);

    this.addSql(`alter table "message" add constraint "message_chat_id_foreign" foreign key ("chat_id") references "chat" ("id") on delete cascade;`);
    this.addSql(`alter table "message" add constraint "message_role_check" check ("role" in ('system', 'user', 'assistant'));`);
    this.addSql(`alter table "message" add constraint "message_status_check" check ("status" in ('streaming', 'complete', 'stopped', 'failed'));`);
    // The demo user's four sample chats (SPEC section 2: ?chat=1..4 opens them).
    const samples: Array<[string, number, string, string]> = [
      ['Quarterly OKR planning', 4, 'Help me draft OKRs for my team next quarter.',
        "Let's build them together. What is the one outcome that would make next quarter a clear success for your team?"],
      ['Preparing a difficult conversation', 3, 'I need to give tough feedback to a senior engineer.',
        "Good that you're preparing. What specific behaviour have you observed, and what impact has it had on the team?"],
      ['Weekly team meeting agenda', 2, 'Can you draft an agenda for our weekly team sync?',
        "Here is a draft agenda for a 45-minute weekly sync:\n\n1. Wins from last week (5 min)\n2. Metrics review (10 min)\n3. Blockers and asks (15 min)\n4. Priorities for this week (10 min)\n5. Action items and owners (5 min)"],
      ['Career growth with GROW', 1, 'I want to grow into a director role.',
        "Let's use the GROW model. Goal first: what would being a director look like for you in 12 months?"],
    ];
    samples.forEach(([title, daysAgo, question, answer], index) => {
      const id = index + 1;
      const at = `now() - interval '${daysAgo} days'`;
      const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;
      this.addSql(`insert into "chat" ("id", "owner_id", "title", "is_pinned", "created_at", "updated_at") values (${id}, 1, ${quote(title)}, false, ${at}, ${at});`);
      this.addSql(`insert into "message" ("chat_id", "role", "content", "status", "created_at") values (${id}, 'user', ${quote(question)}, 'complete', ${at}), (${id}, 'assistant', E${quote(answer)}, 'complete', ${at} + interval '5 seconds');`);
    });
    this.addSql(`select setval(pg_get_serial_sequence('chat', 'id'), 4);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "message" drop constraint "message_chat_id_foreign";`);

    this.addSql(`drop table if exists "chat" cascade;`);
    this.addSql(`drop table if exists "message" cascade;`);
  }

}
