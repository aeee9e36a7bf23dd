import { Migration } from '@mikro-orm/migrations';
import { isSensitive } from '../../features/memories/memoryPolicy.js';

// A memory touching a sensitive topic (health, emotions, family, beliefs, pay, discrimination,
// legal matters, identity, other people's personal details) is marked, so what leaves the app (an
// email, a push, a call) never carries it (features/memories/memoryPolicy.ts). The memories kept
// before the mark are marked here by the same rule, in batches.
export class Migration20261201220000_memory_sensitive extends Migration {

  override name = 'Migration20261201220000_memory_sensitive';

  override async up(): Promise<void> {
    await this.execute(`alter table "memory" add column "sensitive" boolean not null default false;`);
    const batch = 1000;
    for (let after = 0; ; ) {
      const rows = (await this.execute(`select "id", "text" from "memory" where "id" > ? order by "id" limit ${batch}`, [after])) as Array<{ id: number; text: string }>;
      if (!rows.length) break;
      const marked = rows.filter((row) => isSensitive(row.text)).map((row) => row.id);
      if (marked.length) await this.execute(`update "memory" set "sensitive" = true where "id" in (${marked.map(() => '?').join(', ')})`, marked);
      after = rows.at(-1)!.id;
    }
  }

  override async down(): Promise<void> {
    await this.execute(`alter table "memory" drop column if exists "sensitive";`);
  }

}
