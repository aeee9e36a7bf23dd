// Used by the MikroORM CLI (`npx mikro-orm migration:create`, `migration:up`, ...).
// The app itself builds the same options in src/server/db/orm.ts.
import { loadConfig } from './src/server/config.js';
import { databaseTarget, ormOptions } from './src/server/db/orm.js';

export default ormOptions(databaseTarget(loadConfig()));
