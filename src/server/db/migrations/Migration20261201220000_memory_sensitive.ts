import { Migration } from '@mikro-orm/migrations';

// A memory touching a sensitive topic (health, emotions, family, beliefs, pay, discrimination,
// legal matters, identity, other people's personal details) is marked, so what leaves the app (an
// email, a push, a call) never carries it (src/shared/memoryPolicy.ts decides). Null: kept
// before the mark, not decided yet; the server decides those at start (memoryStore.ts,
// decideUndecidedMemories), and until then such a memory is treated as sensitive.
export class Migration20261201220000_memory_sensitive extends Migration {

  override name = 'Migration20261201220000_memory_sensitive';

  override up(): void | Promise<void> {
    this.addSql(`alter table "memory" add column "sensitive" boolean null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "memory" drop column if exists "sensitive";`);
  }

}
