// Compiles the server for the production start (`node dist/server/main.js`): every module of
// src/server and src/shared (tests left out) transpiled one to one by esbuild, the same transform
// tsx applies in development, ahead of time. The layout mirrors src/ (dist/server, dist/shared), so
// relative imports and the paths taken from import.meta.url (dist/client two levels up, the
// compiled migrations in dist/server/db/migrations) hold as they do under src/. No bundling:
// packages load from node_modules as in development. Type checking is `npm run typecheck`.
// `--outdir <dir>` writes elsewhere than dist (a test compiles and starts a copy); the directory
// must be inside the project so that node_modules is found.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sources = ['src/server', 'src/shared'];
const flag = process.argv.indexOf('--outdir');
const outdir = path.resolve(root, flag > 0 ? process.argv[flag + 1] : 'dist');

const entryPoints = sources.flatMap((dir) =>
  fs
    .readdirSync(path.join(root, dir), { recursive: true })
    .map((file) => path.join(dir, String(file)))
    .filter((file) => /\.ts$/.test(file) && !/\.(test|spec)\.ts$/.test(file) && !file.endsWith('.d.ts')),
);

// A stale module (a migration deleted or renamed in src) must not survive in the output.
for (const dir of sources) fs.rmSync(path.join(outdir, path.basename(dir)), { recursive: true, force: true });

const started = performance.now();
await build({
  absWorkingDir: root,
  entryPoints,
  outbase: 'src',
  outdir,
  platform: 'node',
  format: 'esm',
  target: 'node22.12',
  bundle: false,
  sourcemap: false,
  logLevel: 'warning',
  tsconfig: 'tsconfig.json',
});
const shown = path.relative(root, outdir);
console.log(`server: ${entryPoints.length} modules compiled to ${shown}/server and ${shown}/shared in ${Math.round(performance.now() - started)} ms`);

// The embedded database of a first start: a PGlite cluster with every migration applied, made once
// here by the compiled code (src/server/db/initialData.ts) instead of at each new DATA_DIR.
const imageStarted = performance.now();
const { buildInitialData } = await import(pathToFileURL(path.join(outdir, 'server/db/initialData.js')).href);
const image = path.join(outdir, 'server/db/pglite-initial.tar.gz');
const bytes = await buildInitialData(image);
console.log(`server: first-start database ${path.relative(root, image)} (${(bytes / 1024 / 1024).toFixed(1)} MB) in ${Math.round(performance.now() - imageStarted)} ms`);
