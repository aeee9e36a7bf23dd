import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import path from 'node:path';
import { compression } from 'vite-plugin-compression2';
import type { Plugin } from 'vite';
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

// The stored colour scheme applied before the first paint (src/shared/colorSchemeScript.ts): the
// first thing in every page's <head>, so the prerendered pages carry it too. The server's CSP
// allows it by its hash.
const colorSchemeFirst: Plugin = {
  name: 'color-scheme-first',
  transformIndexHtml: () => [{ tag: 'script', children: colorSchemeScript, injectTo: 'head-prepend' }],
};

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
    colorSchemeFirst,
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
