import { Migration } from '@mikro-orm/migrations';

// Search across chats ranks its matches by each message's lexemes (searchChats.ts). Parsing a
// message's text again for every search was most of a search's time, so the lexemes are kept in
// "search_vector", written by a trigger on every path that writes a message (the ORM, the reply
// store's checkpoints, the orphan sweep, a database move). A reply still being written has none
// (its text changes at every checkpoint, and search skips it); it gets one when it ends.
//
// Adding a nullable column without a default rewrites nothing, so this migration is quick on any
// table. Messages written before it are filled in by a batched backfill in the background after
// start (features/search/messageSearchIndex.ts); until then search parses their text as before.
export class Migration20261126170000_message_search_vector extends Migration {

  override name = 'Migration20261126170000_message_search_vector';

  override up(): void | Promise<void> {
    this.addSql(`alter table "message" add column "search_vector" tsvector null;`);
    this.addSql(`create or replace function "message_search_vector"() returns trigger language plpgsql as $$
begin
  new."search_vector" := case when new."status" = 'streaming' then null else to_tsvector('english', new."content") end;
  return new;
end
$$;`);
    this.addSql(`create trigger "message_search_vector" before insert or update of "content", "status" on "message" for each row execute function "message_search_vector"();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "message_search_vector" on "message";`);
    this.addSql(`drop function if exists "message_search_vector"();`);
    this.addSql(`alter table "message" drop column if exists "search_vector";`);
  }

}
