import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import path from 'node:path';
import { compression } from 'vite-plugin-compression2';
import type { Plugin } from 'vite';
import { writeCompressed } from './scripts/writeCompressed.mjs';
import { colorSchemeScript } from './src/shared/colorSchemeScript';

// Mantine's ScrollArea (which every Modal's module imports) takes one hook, useMergeRefs, from
// @floating-ui/react; that import alone put all of floating-ui (about 17 KB gzipped) in the chunk
// every modal needs, so the onboarding dialog of a first visit to /app loaded it though nothing
// there floats (issue 10). That one import is resolved to an equivalent built on @mantine/hooks.
const scrollAreaWithoutFloatingUi: Plugin = {
  name: 'scroll-area-without-floating-ui',
  enforce: 'pre',
  resolveId(source, importer) {
    if (source === '@floating-ui/react' && importer && /@mantine[\\/]core[\\/]esm[\\/]components[\\/]ScrollArea[\\/]ScrollArea\.mjs$/.test(importer)) {
      return path.resolve(import.meta.dirname, 'src/client/lib/mergeRefs.ts');
    }
    return null;
  },
};

// Mantine's useId (@mantine/hooks) gives each component a random id from a layout effect after
// its first render, so that React drew every input, modal and app-shell section twice, the second
// time synchronously, in the task that committed the page (issue 10: TBT). Resolved to
// src/client/lib/mantineUseId.ts, which keeps React's own id (the one Mantine renders first).
const mantineUseIdWithoutEffect: Plugin = {
  name: 'mantine-use-id-without-effect',
  enforce: 'pre',
  resolveId(source, importer) {
    if (importer && /@mantine[\\/]hooks[\\/]esm[\\/]/.test(importer) && /(^|[\\/])use-id[\\/]use-id\.mjs$/.test(source)) {
      return path.resolve(import.meta.dirname, 'src/client/lib/mantineUseId.ts');
    }
    return null;
  },
};

// Mantine's NavLink imports Collapse (and with it the vertical and horizontal collapse hooks) and
// Accordion's chevron, which it draws only for a link with children. The app's links have none;
// those modules were about 2 KB gzipped of every first visit to /app (issue 39). NavLink's two
// imports are resolved to src/client/lib/navLinkNesting.tsx, which loads the real ones when a
// nested link is first drawn.
const navLinkNestingOnDemand: Plugin = {
  name: 'nav-link-nesting-on-demand',
  enforce: 'pre',
  resolveId(source, importer) {
    if (importer && /@mantine[\\/]core[\\/]esm[\\/]components[\\/]NavLink[\\/]NavLink\.mjs$/.test(importer) && /^\.\.\/(Collapse\/Collapse|Accordion\/AccordionChevron)\.mjs$/.test(source)) {
      return path.resolve(import.meta.dirname, 'src/client/lib/navLinkNesting.tsx');
    }
    return null;
  },
};

// The stored colour scheme applied before the first paint (src/shared/colorSchemeScript.ts): the
// first thing in every page's <head>, so the prerendered pages carry it too. The server's CSP
// allows it by its hash.
const colorSchemeFirst: Plugin = {
  name: 'color-scheme-first',
  transformIndexHtml: () => [{ tag: 'script', children: colorSchemeScript, injectTo: 'head-prepend' }],
};

// V8's explicit compile hint (https://v8.dev/blog/explicit-compile-hints, Chromium 136 on): a
// script that begins with `//# allFunctionsCalledOnLoad` has all its functions compiled as it is
// streamed in, on a background thread, instead of each on the main thread at its first call. For
// the scripts of a first view, most of whose functions run as the page starts: the entry's chunk,
// the first view's groups and a stored chat's chunk (issue 39: a cold load's main-thread work).
// Other browsers read it as a comment.
const compileHintChunks = /^(shared|home-app|home|app-public|app)$/;
const compileHintModules = /[\\/]features[\\/]chat[\\/]OpenChat\.tsx$/;
const compileHints: Plugin = {
  name: 'compile-hints',
  // After the files are written with their compressed copies: the comment has to be the file's
  // first line, before what Vite puts there (its list of lazily loaded stylesheets), and the
  // minifier drops comments.
  writeBundle: {
    order: 'post',
    handler(options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !(compileHintChunks.test(chunk.name) || (chunk.facadeModuleId && compileHintModules.test(chunk.facadeModuleId)))) continue;
        writeCompressed(path.join(options.dir ?? '', chunk.fileName), `//# allFunctionsCalledOnLoad\n${chunk.code}`);
      }
    },
  },
};

// /app's first view in a few chunks (issue 39). Rolldown's default splitting makes one chunk for
// each set of lazily loaded modules that share a module, so the app shell, the chat page and the
// onboarding dialog came as dozens of small chunks (103 scripts on a first visit). Here the
// modules of that first view (what the app shell's, the chat page's and the onboarding dialog's
// modules import, minus the entry's own) are put in at most three chunks, by who else needs them:
// - `home-app`: those the landing page's first view (routes/index.tsx) imports too; both fetch it
//   whole, so / gets fewer scripts and no more bytes;
// - `app-public`: those something public loaded later needs too (the sign-in dialog, /login, the
//   public pages' lazily loaded parts): they fetch this chunk rather than pieces of it;
// - `app`: the rest, needed by /app alone;
// and a fourth, `home`: what only the landing page's first view imports (its sections' components).
// Only static imports are followed from those roots: what the app loads when first needed (other
// pages, dialogs, the Markdown renderer, the WebSocket client) stays in chunks of its own. Computed
// from the module graph in the first call of `name`, after `test` has listed every module.
// A module the entry uses but the walk from it misses would land in a group, and the entry (so /)
// would fetch that group: `npm run bench:bundle` shows it in /'s files.
const firstViewRoots = {
  app: [/[\\/]routes[\\/]_app\.tsx\?tsr-split=(component|pendingComponent)$/, /[\\/]routes[\\/]_app[\\/]app\.tsx\?tsr-split=component$/, /[\\/]features[\\/]onboarding[\\/]OnboardingModal\.tsx$/],
  home: [/[\\/]routes[\\/]index\.tsx\?tsr-split=component$/],
  entry: /[\\/]src[\\/]client[\\/]main\.tsx$/,
  // Modules of the app's own pages: not followed when looking for what public pages need. With
  // them, the module of a stored chat, which /app's loader (in the entry) imports when it opens one.
  appPage: /[\\/]routes[\\/]_app(\.tsx|[\\/][^?]*)\?tsr-split=|[\\/]features[\\/]chat[\\/]openChatModule\.ts$/,
  // Modules a first-view module imports but only lazily loaded code uses, left out of the groups
  // (Rolldown then puts them with their users): tRPC's WebSocket client. @trpc/client's index
  // imports it for wsLink and createWSClient, which only lib/trpcSocket.ts (loaded with the first
  // subscription) calls; followed from the index, it was in `app-public`, 2.5 KB gzipped of every
  // first visit to /app.
  lazyOnly: [/[\\/]@trpc[\\/]client[\\/]dist[\\/]wsLink-[^\\/]+\.mjs$/],
};
type ModuleGraphInfo = { importedIds: readonly string[]; dynamicallyImportedIds: readonly string[]; isEntry: boolean; exports: readonly string[]; code: string | null };
// A package's index that re-exports the whole package (@mantine/core, @tabler/icons-react): an
// import of one name from it is followed to the module that defines that name, not to every
// module of the package, which the bundle leaves out anyway. The texts' catalogue
// (src/shared/texts/index.ts) is followed the same way: `onboardingTexts` leads to onboarding.ts
// alone, so the texts the first view uses go in its groups (each was a chunk of its own, 11
// requests), and those the entry uses stay out of them.
const textsModule = /[\\/]src[\\/]shared[\\/]texts[\\/][^\\/]+\.ts$/;
const textsIndex = /[\\/]src[\\/]shared[\\/]texts[\\/]index\.ts$/;
// A package's module that only imports and re-exports (its index): nothing but import and export
// statements and comments, and no default import (react-remove-scroll's index exports its
// default export as RemoveScroll, a name no module of the package defines).
const onlyReexports = (code: string | null) =>
  code !== null &&
  !/\bimport\s+[\w$]+\s*(,|from\b)/.test(code) &&
  code
    .replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '')
    .replace(/\b(?:import|export)\s*(?:[\w$]+\s*,\s*)?(?:\*(?:\s*as\s+[\w$]+)?|\{[^}]*\}|[\w$]+)\s*from\s*["'][^"']*["'];?|\bexport\s*\{[^}]*\};?|\bimport\s*["'][^"']*["'];?/g, '')
    .trim() === '';
const isBarrel = (id: string, module: ModuleGraphInfo) => textsIndex.test(id) || (/[\\/]node_modules[\\/]/.test(id) && (module.importedIds.length > 30 || (module.importedIds.length > 0 && onlyReexports(module.code))));
const packageRoot = (id: string) => (textsIndex.test(id) ? path.dirname(id) + path.sep : (id.match(/^.*[\\/]node_modules[\\/](@[^\\/]+[\\/])?[^\\/]+[\\/]/)?.[0] ?? id));
// The names a module imports from a barrel: only those of the import statements whose source is
// that barrel (the package's name, or the texts' catalogue), so that a name imported from
// elsewhere does not lead into the package as well.
const importedNames = (code: string, root: string) => {
  const names = new Set<string>();
  const fromBarrel = (source: string) => (root.includes(`${path.sep}node_modules${path.sep}`) ? root.endsWith(`${path.sep}node_modules${path.sep}${source.split('/').join(path.sep)}${path.sep}`) : /(^|\/)texts(\/index(\.ts)?)?$/.test(source));
  for (const match of code.matchAll(/(?:import|export)\s*(?:[\w$]+\s*,\s*)?\{([^}]*)\}\s*from\s*["']([^"']*)["']/g)) {
    if (!fromBarrel(match[2])) continue;
    for (const part of match[1].split(',')) {
      const name = part.trim().split(/\s+as\s+/)[0]?.trim();
      if (name) names.add(name);
    }
  }
  return names;
};
function firstViewChunks() {
  const ids: string[] = [];
  let groups: Map<string, string> | undefined;
  const compute = (info: (id: string) => ModuleGraphInfo | null) => {
    // The modules of a package that define each exported name (a file's own name for Tabler's icons,
    // which export only `default`).
    const definedBy = new Map<string, string[]>();
    const define = (name: string, id: string) => definedBy.set(name, [...(definedBy.get(name) ?? []), id]);
    for (const id of ids) {
      const module = info(id);
      if (!module || !(/[\\/]node_modules[\\/]/.test(id) || textsModule.test(id)) || isBarrel(id, module)) continue;
      for (const name of module.exports) if (name !== 'default') define(name, id);
      define(path.basename(id).replace(/\.[cm]?js$/, ''), id);
    }
    // Where a barrel's names are defined: its package, and the packages it re-exports
    // (@tanstack/react-query's index re-exports @tanstack/query-core's).
    const barrelRoots = (id: string, seen = new Set<string>()): string[] => {
      seen.add(id);
      const nested = (info(id)?.importedIds ?? []).filter((other) => !seen.has(other) && /[\\/]node_modules[\\/]/.test(other) && packageRoot(other) !== packageRoot(id));
      return [packageRoot(id), ...nested.flatMap((other) => barrelRoots(other, seen))];
    };
    const follow = (module: ModuleGraphInfo, dynamic: boolean) => {
      const next: string[] = [];
      for (const imported of module.importedIds) {
        const target = info(imported);
        if (!target || !isBarrel(imported, target)) {
          next.push(imported);
          continue;
        }
        next.push(imported);
        const roots = barrelRoots(imported);
        for (const name of importedNames(module.code ?? '', roots[0])) {
          const definers = (definedBy.get(name) ?? []).filter((definer) => roots.some((root) => definer.startsWith(root)));
          // A module of the app that a plugin put in the package's place (lib/mantineUseId.ts).
          definers.push(...target.importedIds.filter((other) => !/[\\/]node_modules[\\/]/.test(other) && info(other)?.exports.includes(name)));
          // A name no module defines (a small index's renamed export): that index is followed whole.
          if (definers.length === 0 && target.importedIds.length <= 30) next.push(...target.importedIds);
          next.push(...definers);
        }
      }
      if (dynamic) next.push(...module.dynamicallyImportedIds);
      return next;
    };
    const reach = (roots: Iterable<string>, dynamic: boolean, skip: (id: string) => boolean = () => false) => {
      const seen = new Set<string>();
      const stack = [...roots];
      for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
        if (seen.has(id) || skip(id)) continue;
        seen.add(id);
        const module = info(id);
        // A barrel is taken itself (it is empty once bundled), and its names are followed from
        // the module that imports them.
        if (module && !isBarrel(id, module)) stack.push(...follow(module, dynamic));
      }
      return seen;
    };
    const matching = (patterns: RegExp[]) => ids.filter((id) => patterns.some((pattern) => pattern.test(id)));
    const appRoots = matching(firstViewRoots.app);
    const homeRoots = matching(firstViewRoots.home);
    if (appRoots.length < 3 || homeRoots.length === 0 || !ids.some((id) => firstViewRoots.entry.test(id))) throw new Error(`first-view chunks: roots not found (${appRoots.length} app, ${homeRoots.length} home)`);
    const entries = ids.filter((id) => info(id)?.isEntry || firstViewRoots.entry.test(id));
    const inEntry = reach(entries, false);
    const home = reach(homeRoots, false);
    // Everything public: from the entry, static and lazy imports, not into the app's pages.
    const isAppPage = (id: string) => firstViewRoots.appPage.test(id) || appRoots.includes(id);
    const publicModules = reach([...entries, ...homeRoots], true, isAppPage);
    const result = new Map<string, string>();
    for (const id of reach(appRoots, false)) {
      // The roots stay chunks of their own: the router, the prerendered pages and the benches find
      // them by their source in the build manifest.
      if (inEntry.has(id) || appRoots.includes(id) || firstViewRoots.lazyOnly.some((pattern) => pattern.test(id))) continue;
      result.set(id, home.has(id) ? 'home-app' : publicModules.has(id) ? 'app-public' : 'app');
    }
    // What only the landing page's first view uses (its sections' Grid, Card, SimpleGrid ...): one
    // chunk `home`, not one request each. What other public pages load too (Container, the logo
    // for the legal pages) stays in chunks of their own, so they do not fetch the landing page's.
    const otherPublic = reach(entries, true, (id) => isAppPage(id) || homeRoots.includes(id));
    for (const id of home) if (!inEntry.has(id) && !homeRoots.includes(id) && !result.has(id) && !otherPublic.has(id)) result.set(id, 'home');
    return result;
  };
  return {
    debugName: 'first-view',
    test: (id: string) => {
      ids.push(id);
      return true;
    },
    name: (id: string, ctx: { getModuleInfo: (id: string) => ModuleGraphInfo | null }) => {
      groups ??= compute((moduleId) => ctx.getModuleInfo(moduleId));
      return groups.get(id) ?? null;
    },
  };
}

// Two builds (npm run build): the client (dist/client), then `vite build --ssr` of
// src/client/prerender.tsx (dist/prerender), which scripts/prerender.mjs uses to write the public
// pages as static HTML into dist/client/prerendered/ (issue 10: the largest paint needs no script).
export default defineConfig(({ isSsrBuild }) => ({
  root: 'src/client',
  publicDir: isSsrBuild ? false : 'public',
  plugins: [
    // The router plugin must come before react(): it generates routeTree.gen.ts and splits routes.
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      routesDirectory: './routes',
      generatedRouteTree: './routeTree.gen.ts',
      // Pending components (a page's skeleton and its texts) are split out like components, not
      // kept in the entry (issue 10). Loaders stay in the entry so they start at once, in
      // parallel with the route's chunks; what they use they import when they run.
      codeSplittingOptions: {
        defaultBehavior: [['component'], ['pendingComponent'], ['errorComponent'], ['notFoundComponent']],
      },
    }),
    react(),
    scrollAreaWithoutFloatingUi,
    mantineUseIdWithoutEffect,
    navLinkNestingOnDemand,
    colorSchemeFirst,
    ...(isSsrBuild ? [] : [compileHints]),
    // Brotli and gzip copies of the built files (assets/*.js.br, *.js.gz, index.html.br ...), made
    // once at build time at the highest levels; the server sends them as they are
    // (src/server/http/staticAssets.ts). A copy that would not be smaller is not written.
    ...(isSsrBuild ? [] : [compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 })]),
  ],
  build: isSsrBuild
    ? { outDir: '../../dist/prerender', emptyOutDir: true, sourcemap: false, copyPublicDir: false }
    : {
        outDir: '../../dist/client',
        emptyOutDir: true,
        sourcemap: false,
        // dist/client/.vite/manifest.json: which built file holds which source.
        // bench/client-bundle.ts reads it to check that the chat's code is not fetched by the
        // landing page. Not served (the server's static files skip dot-directories).
        manifest: true,
        // No modulepreload links put in by Vite's preload helper when a chunk is imported: it put
        // in every dependency the page had not linked yet in one go, each link a request started
        // by the main thread (about 1 ms each; 80 for /app, one 500 ms task on Lighthouse's phone:
        // issue 10, TBT). The prerendered pages preload what their first view needs, a few links a
        // task (scripts/prerender-boot.js), and a chunk's imports are fetched as the browser
        // loads it. Stylesheets of lazily loaded chunks are still put in by the helper.
        modulePreload: false,
        rolldownOptions: {
          // `shared`: every module of the entry's static imports (Rolldown's `$initial` tag) but
          // main.tsx and stylesheets, in one chunk. Rolldown left the entry's modules that lazily
          // loaded chunks import too (React, TanStack Router's `link`, Mantine's `Box`, a dozen
          // hooks) as chunks of their own, about 15 requests for / and /app (issue 39). Stylesheets
          // stay with the entry (index.css, which the prerendered pages inline).
          output: {
            codeSplitting: {
              includeDependenciesRecursively: false,
              groups: [firstViewChunks(), { name: 'shared', tags: ['$initial'], test: (id: string) => !/\.css($|\?)/.test(id) && !firstViewRoots.entry.test(id) }],
            },
          },
          treeshake: {
            // @trpc/client's package.json does not say its modules are free of side effects, so
            // its WebSocket client (about 3 KB gzipped) stayed in the tRPC chunk although the app
            // imports it only from lib/trpcSocket.ts, loaded with the first subscription (issue
            // 26). Its modules only declare; every other module keeps the default.
            moduleSideEffects: [{ test: /[\\/]node_modules[\\/]@trpc[\\/]client[\\/]/, sideEffects: false }],
          },
        },
      },
}));
