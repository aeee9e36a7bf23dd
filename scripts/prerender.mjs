// Prerendering of the public pages (issue 10), run by `npm run build` after the client build and
// the SSR build of src/client/prerender.tsx: each page below is rendered to HTML and written, in
// the built index.html (same scripts and stylesheet), to dist/client/prerendered/<name>.html
// with brotli and gzip copies, and the list of client routes (routes.json). The server sends these for their paths
// (src/server/http/staticAssets.ts); the browser draws the page before any script runs and the
// client then hydrates it (src/client/main.tsx).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = path.resolve(import.meta.dirname, '..');
const clientDir = path.join(root, 'dist/client');
const outDir = path.join(clientDir, 'prerendered');
const entry = path.join(root, 'dist/prerender/prerender.js');

// The route file whose chunk each page needs before it can hydrate: its scripts are preloaded
// (modulepreload links) so they download with the entry, not after it.
const routeFiles = { index: 'routes/index.tsx', terms: 'routes/terms.tsx', privacy: 'routes/privacy.tsx', login: 'routes/login.tsx' };

/**
 * The built files of a route's lazily loaded chunk and of everything it imports, minus the entry's
 * own: `files` the scripts, `css` their stylesheets (a chunk's imports' before its own, as Vite
 * orders them), which the page links so it is drawn styled before any script runs.
 */
function routeChunkFiles(manifest, routeFile) {
  const entry = manifest['index.html'];
  const skip = new Set(['index.html', ...(entry.imports ?? [])]);
  const keys = Object.keys(manifest).filter((key) => key.startsWith(`${routeFile}?tsr-split`));
  const files = [];
  const css = [];
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key) || skip.has(key)) return;
    seen.add(key);
    files.push(manifest[key].file);
    for (const imported of manifest[key].imports ?? []) visit(imported);
    for (const sheet of manifest[key].css ?? []) if (!css.includes(sheet)) css.push(sheet);
  };
  for (const key of keys) visit(key);
  return { files, css };
}

// name: the path rendered. The not-found page is rendered for a path no route matches; the
// server sends it, with status 404, for every such path.
const pages = {
  index: '/',
  terms: '/terms',
  privacy: '/privacy',
  login: '/login',
  'not-found': '/__not-found__',
};

const { render, routePaths } = await import(pathToFileURL(entry).href);
const manifest = JSON.parse(fs.readFileSync(path.join(clientDir, '.vite/manifest.json'), 'utf8'));
const template = fs.readFileSync(path.join(clientDir, 'index.html'), 'utf8');
const placeholder = '<div id="root"></div>';
if (!template.includes(placeholder)) throw new Error(`dist/client/index.html has no ${placeholder}`);

fs.rmSync(outDir, { recursive: true, force: true });
fs.mkdirSync(outDir, { recursive: true });
const started = performance.now();
for (const [name, url] of Object.entries(pages)) {
  const { html, statusCode } = await render(url);
  const expected = name === 'not-found' ? 404 : 200;
  if (statusCode !== expected) throw new Error(`prerendering ${url} gave status ${statusCode}, expected ${expected}`);
  const { files: preloads, css } = routeFiles[name] ? routeChunkFiles(manifest, routeFiles[name]) : { files: [], css: [] };
  if (routeFiles[name] && preloads.length === 0) throw new Error(`no chunk for ${routeFiles[name]} in the build manifest`);
  const links = [
    ...css.map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
    ...preloads.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
  ].join('');
  const page = template.replace(placeholder, `<div id="root">${html}</div>`).replace('</head>', `${links}</head>`);
  const file = path.join(outDir, `${name}.html`);
  fs.writeFileSync(file, page);
  fs.writeFileSync(`${file}.br`, brotliCompressSync(page, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  fs.writeFileSync(`${file}.gz`, gzipSync(page, { level: 9 }));
}
const routes = routePaths();
if (!routes.includes('/') || !routes.includes('/app')) throw new Error(`unexpected client routes: ${routes.join(', ')}`);
fs.writeFileSync(path.join(outDir, 'routes.json'), `${JSON.stringify(routes)}\n`);
console.log(`prerendered ${Object.keys(pages).length} pages to dist/client/prerendered in ${Math.round(performance.now() - started)} ms`);
