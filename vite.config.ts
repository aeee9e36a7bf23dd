import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

export default defineConfig({
  root: 'src/client',
  publicDir: 'public',
  plugins: [
    // The router plugin must come before react(): it generates routeTree.gen.ts and splits routes.
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      routesDirectory: './routes',
      generatedRouteTree: './routeTree.gen.ts',
    }),
    react(),
    // Brotli and gzip copies of the built files (assets/*.js.br, *.js.gz, index.html.br ...), made
    // once at build time at the highest levels; the server sends them as they are
    // (src/server/http/staticAssets.ts). A copy that would not be smaller is not written.
    compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 }),
  ],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    sourcemap: false,
  },
});
