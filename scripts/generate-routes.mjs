// Writes src/client/routeTree.gen.ts (git-ignored) the way the Vite router plugin does, so that
// `npm run typecheck` works on a fresh clone before any build. Same options as vite.config.ts.
import path from 'node:path';
import { Generator, getConfig } from '@tanstack/router-generator';

const root = path.resolve(import.meta.dirname, '../src/client');
const config = getConfig({ target: 'react', autoCodeSplitting: true, routesDirectory: './routes', generatedRouteTree: './routeTree.gen.ts' }, root);
await new Generator({ config, root }).run();
