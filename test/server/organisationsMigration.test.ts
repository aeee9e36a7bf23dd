import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ormOptions } from '../../src/server/db/orm.js';
import { ensureDeploymentOrganisation } from '../../src/server/features/organisations/organisation.js';

// The organisations migration on the embedded database: the accounts a database already holds join
// the deployment's organisation; a new database stays empty after its migrations (db:move moves
// only into an empty one), and the first start makes the organisation.

vi.setConfig({ testTimeout: 120_000 });

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function embedded() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-coach-org-migration-'));
  dirs.push(dir);
  return MikroORM.init(ormOptions({ kind: 'pglite', directory: path.join(dir, 'pglite') }));
}
const rows = async (orm: MikroORM, sql: string) => orm.em.fork().getConnection().execute(sql);

describe('the organisations migration', () => {
  it('puts the accounts a database holds into the one organisation, as members', async () => {
    const orm = await embedded();
    try {
      await orm.migrator.up({ to: 'Migration20261202202500_debriefs' });
      await rows(orm, `insert into "app_user" ("username", "username_key", "full_name", "is_demo", "is_guest", "created_at") values ('before', 'before', 'Before Org', false, false, now())`);
      await orm.migrator.up();
      expect(await rows(orm, 'select "id", "name" from "organisation"')).toEqual([{ id: 1, name: 'Organisation' }]);
      expect(await rows(orm, `select "organisation_id", "org_role", "active" from "app_user" where "username" = 'before'`)).toEqual([{ organisation_id: 1, org_role: 'member', active: true }]);
    } finally {
      await orm.close(true);
    }
  });

  it('leaves a new database empty, and the first start makes the organisation once', async () => {
    const orm = await embedded();
    try {
      await orm.migrator.up();
      expect(await rows(orm, 'select count(*)::int as "n" from "organisation"')).toEqual([{ n: 0 }]);
      await ensureDeploymentOrganisation(orm);
      await ensureDeploymentOrganisation(orm);
      expect(await rows(orm, 'select "id" from "organisation"')).toEqual([{ id: 1 }]);
    } finally {
      await orm.close(true);
    }
  });
});
