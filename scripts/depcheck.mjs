// Runs dependency-cruiser with the import rules of .dependency-cruiser.cjs over src/.
//
// dependency-cruiser reads TypeScript (and tells `import type` from a runtime import) with the
// TypeScript compiler's JavaScript API, which TypeScript 7 (the project's compiler, native) no
// longer has. So the check is given TypeScript 6's API, installed as `typescript-for-depcruise`:
// only imports of 'typescript' made by dependency-cruiser itself are sent there.
import { registerHooks } from 'node:module';

// First: no comment in src/ cites an issue by number (scripts/citations.mjs; exits 1 if one does).
await import('./citations.mjs');
// And docs/architecture.md's area index names only paths that exist (scripts/areaIndex.mjs).
await import('./areaIndex.mjs');

registerHooks({
  resolve(specifier, context, nextResolve) {
    const fromCruiser = context.parentURL?.includes('/node_modules/dependency-cruiser/') ?? false;
    if (fromCruiser && (specifier === 'typescript' || specifier.startsWith('typescript/'))) {
      return nextResolve(specifier.replace(/^typescript/, 'typescript-for-depcruise'), context);
    }
    return nextResolve(specifier, context);
  },
});

process.argv.splice(2, 0, 'src', '--config', '.dependency-cruiser.cjs');
// The package exports no bin path: its CLI is started from the file npm installed.
await import(new URL('../node_modules/dependency-cruiser/bin/dependency-cruiser.mjs', import.meta.url).href);
