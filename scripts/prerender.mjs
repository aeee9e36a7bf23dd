// Prerendering of the public pages, run by `npm run build` after the client build and
// the SSR build of src/client/prerender.tsx: each page below is rendered to HTML and written, in
// the built index.html (same scripts and stylesheet), to dist/client/prerendered/<name>.html
// with brotli and gzip copies, and the list of client routes (routes.json). The server sends these for their paths
// (src/server/http/staticAssets.ts); the browser draws the page before any script runs and the
// client then hydrates it (src/client/main.tsx).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createHash } from 'node:crypto';
import { transformSync } from 'esbuild';
import { writeCompressed } from './writeCompressed.mjs';

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
  const keys = Object.keys(manifest).filter((key) => key === routeFile || key.startsWith(`${routeFile}?tsr-split`));
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

// Stylesheets written into the page (<style>) rather than linked: the entry's (Mantine's global
// styles and the public pages' components, src/client/styles/mantinePublic.ts) and a route's own
// when small. A linked stylesheet blocks the first paint until it has arrived: one more round trip
// after the HTML on a phone network; inline, the prerendered page can be drawn as soon as its HTML
// is parsed (LCP). The Content-Security-Policy allows inline styles (style-src
// 'unsafe-inline'), not inline scripts. A route's stylesheet is linked again by the client when
// it loads the route's chunk unless the page names it (see inlineStylesheet).
const inlineCssMaxBytes = 16 * 1024;
function inlineStylesheet(page, file) {
  const link = `<link rel="stylesheet" crossorigin href="/${file}">`;
  if (!page.includes(link)) throw new Error(`no ${link} in the page`);
  const css = fs.readFileSync(path.join(clientDir, file), 'utf8');
  if (css.includes('</style')) throw new Error(`${file} cannot be inlined`);
  // The disabled link (never fetched) names the stylesheet for Vite's preload helper, which looks
  // for stylesheet links: without it, the first lazily loaded chunk that needs this stylesheet
  // fetched it again and waited for it before its code ran (a round trip before /app was drawn).
  return page.replace(link, () => `<style data-href="/${file}">${css}</style><link rel="stylesheet" crossorigin href="/${file}" disabled>`);
}

// The prerendered pages run scripts/prerender-boot.js instead of the entry script: the page is
// drawn before the app's scripts are fetched and run (see that file). Minified, content-hashed
// under /assets/ like the rest of the build (cached for a year), with brotli and gzip copies as
// the build's own scripts have (it was sent as written, comments and all: 4.6 KB instead of 0.8).
const bootSource = transformSync(fs.readFileSync(path.join(root, 'scripts/prerender-boot.js'), 'utf8'), { minify: true, format: 'esm', target: 'es2022' }).code;
const bootFile = `assets/boot-${createHash('sha256').update(bootSource).digest('base64url').slice(0, 8)}.js`;
writeCompressed(path.join(clientDir, bootFile), bootSource);
function bootAfterPaint(page) {
  const entryScript = page.match(/<script type="module" crossorigin src="([^"]+)"><\/script>/);
  if (!entryScript) throw new Error('no entry script in the page');
  const preloads = [...page.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)];
  let out = page.replace(entryScript[0], () => `<script type="module" src="/${bootFile}" data-entry="${entryScript[1]}" data-preload="${preloads.map((m) => m[1]).join(' ')}"></script>`);
  for (const link of preloads) out = out.replace(link[0], '');
  return out;
}

/** Writes prerendered/<name>.html with its brotli and gzip copies. */
function writePage(name, page) {
  writeCompressed(path.join(outDir, `${name}.html`), page);
}

const { render, renderAppShell, routePaths, appShellTitle, untitledRoutes } = await import(pathToFileURL(entry).href);
// Every page names itself in the tab (issue 49): a route added without a title is a build error.
const untitled = untitledRoutes();
if (untitled.length) throw new Error(`client routes without a page title in src/shared/texts/pageTitles.ts: ${untitled.join(', ')}`);
const templateTitle = '<title>AI Coach</title>';
/** The page with its own title in place of the template's. */
function titled(page, title) {
  if (!page.includes(templateTitle)) throw new Error(`dist/client/index.html has no ${templateTitle}`);
  const escaped = title.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return page.replace(templateTitle, () => `<title>${escaped}</title>`);
}
const renderedShell = { app: await renderAppShell(false), 'app-chat': await renderAppShell(true) };
const manifest = JSON.parse(fs.readFileSync(path.join(clientDir, '.vite/manifest.json'), 'utf8'));
const template = fs.readFileSync(path.join(clientDir, 'index.html'), 'utf8');
// The entry's own imports (the `shared` chunk: React, the router, Mantine's core; Rolldown's
// runtime). Vite's preload links for them are off (vite.config.ts, modulePreload), so without
// these a page found them only once the entry had arrived and been parsed: the largest script,
// fetched last (a 300-message chat's cold load waited for it until 437 ms). Preloaded
// first on every page.
const entryImports = (manifest['index.html'].imports ?? []).map((key) => manifest[key].file);
if (entryImports.length === 0) throw new Error('the entry imports nothing in the build manifest: the shared chunk is missing');
const placeholder = '<div id="root"></div>';
if (!template.includes(placeholder)) throw new Error(`dist/client/index.html has no ${placeholder}`);

fs.rmSync(outDir, { recursive: true, force: true });
fs.mkdirSync(outDir, { recursive: true });
const started = performance.now();
for (const [name, url] of Object.entries(pages)) {
  const { html, statusCode, title } = await render(url);
  const expected = name === 'not-found' ? 404 : 200;
  if (statusCode !== expected) throw new Error(`prerendering ${url} gave status ${statusCode}, expected ${expected}`);
  const { files: preloads, css } = routeFiles[name] ? routeChunkFiles(manifest, routeFiles[name]) : { files: [], css: [] };
  if (routeFiles[name] && preloads.length === 0) throw new Error(`no chunk for ${routeFiles[name]} in the build manifest`);
  const links = [
    ...css.map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
    ...[...entryImports, ...preloads].map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
  ].join('');
  let page = titled(template, title).replace(placeholder, () => `<div id="root">${html}</div>`).replace('</head>', `${links}</head>`);
  // Not /login: its fields could be typed into before React has taken them over, and what was
  // typed would be lost to the form's state (the click that sends it is held, the text is not).
  // Drawn sooner (inline styles) or hydrated later (boot script), that window would widen; the
  // page stays as it was (linked stylesheets, the entry script).
  if (name !== 'login') {
    for (const file of manifest['index.html'].css ?? []) page = inlineStylesheet(page, file);
    for (const file of css) if (fs.statSync(path.join(clientDir, file)).size <= inlineCssMaxBytes) page = inlineStylesheet(page, file);
    page = bootAfterPaint(page);
  }
  writePage(name, page);
}

// /app, the chat: drawn for the session, so not prerendered as such; its page holds a placeholder
// of the app shell and the chat page (src/client/components/shell/AppShellPlaceholder.tsx), drawn
// before any script runs and replaced by the app (src/client/main.tsx), for /app's Largest Contentful Paint.
// app.html for a new conversation, app-chat.html for ?chat={id} (a conversation loading); the
// server picks (src/server/http/staticAssets.ts). Styles inline like the public pages'; the
// scripts of the app shell and of the chat route are fetched with the entry, after the first
// paint (the boot script), rather than after it has run, in waves.
{
  const shell = [routeChunkFiles(manifest, 'routes/_app.tsx'), routeChunkFiles(manifest, 'routes/_app/app.tsx')];
  const files = [...new Set(shell.flatMap((chunk) => chunk.files))];
  const sheets = [...new Set(shell.flatMap((chunk) => chunk.css))];
  if (shell.some((chunk) => chunk.files.length === 0)) throw new Error('no chunk for the app shell or the chat route in the build manifest');
  // A stored chat's page and thread are a chunk of their own (features/chat/openChatModule.ts),
  // needed at once by app-chat.html.
  const thread = routeChunkFiles(manifest, 'features/chat/OpenChat.tsx');
  if (thread.files.length === 0) throw new Error('no chunk for features/chat/OpenChat.tsx in the build manifest');
  for (const [name, openChat] of [['app', false], ['app-chat', true]]) {
    const scripts = [...new Set([...entryImports, ...files, ...(openChat ? thread.files : [])])];
    const links = [
      ...sheets.map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
      ...scripts.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
    ].join('');
    let page = titled(template, appShellTitle(openChat)).replace(placeholder, () => `<div id="root">${renderedShell[name]}</div>`).replace('</head>', `${links}</head>`);
    for (const file of [...(manifest['index.html'].css ?? []), ...sheets]) page = inlineStylesheet(page, file);
    // A new conversation's page is drawn first, then runs the app (the boot script), as the public
    // pages do; a stored chat's runs the app as soon as it can (the entry script, its imports
    // preloaded): what it shows, the conversation, comes from the app, not from the placeholder.
    if (!openChat) page = bootAfterPaint(page);
    writePage(name, page);
  }
}

const routes = routePaths();
if (!routes.includes('/') || !routes.includes('/app')) throw new Error(`unexpected client routes: ${routes.join(', ')}`);
fs.writeFileSync(path.join(outDir, 'routes.json'), `${JSON.stringify(routes)}\n`);
console.log(`prerendered ${Object.keys(pages).length} pages to dist/client/prerendered in ${Math.round(performance.now() - started)} ms`);
