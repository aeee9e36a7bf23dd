import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';


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
      },
}));
