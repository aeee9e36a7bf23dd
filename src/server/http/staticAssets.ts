import fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import compression from 'compression';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { trimEndChars } from '../../shared/trimText.js';

// How the built client goes over the wire.
//
// `npm run build` writes a brotli (.br) and a gzip (.gz) copy next to every built file worth
// compressing (vite-plugin-compression2 in vite.config.ts, highest levels, once). Here they are
// sent as they are: the copy the browser accepts (brotli first), with Content-Encoding, Vary:
// Accept-Encoding and the plain file's Content-Type; nothing is compressed per request.
// Hashed files under /assets/ never change under the same name and are cached for a year
// (immutable); index.html is revalidated on every visit (no-cache) so a new build is seen at once.
//
// The public pages are prerendered by the build (scripts/prerender.mjs) into prerendered/: /,
// /terms, /privacy and /login get their own HTML (drawn before any script runs, then hydrated),
// /app a placeholder of the app shell and the chat that the app replaces (app-chat for ?chat=),
// and a path that is no client route gets the not-found page with status 404. The list of client
// routes comes from the same build (prerendered/routes.json). Without prerendered pages (a build
// from before, a test fixture) every path gets index.html, as a single-page app.

const yearImmutable = 'public, max-age=31536000, immutable';

/** True when `dir` holds a built client (index.html). */
export function isClientBuilt(dir: string): boolean {
  return fs.existsSync(path.join(dir, 'index.html'));
}

/**
 * `showsApp`: whether a request for /app will be drawn as the app (demo mode, or a session cookie
 * sent): its placeholder (prerendered/app.html) is only for them; anyone else is asked to sign in,
 * and gets the single-page shell rather than a chat page that turns into a sign-in panel.
 */
export function clientAssets(dir: string, options: { showsApp?: (req: Request) => boolean } = {}): Router {
  const root = path.resolve(dir);
  const assetsDir = `${path.sep}assets${path.sep}`;
  const serve = expressStaticGzip(root, {
    enableBrotli: true,
    orderPreference: ['br', 'gzip'],
    index: false,
    serveStatic: {
      index: false,
      // Other files in the build (favicon.svg ...) keep a short cache.
      maxAge: '1h',
      // Called with the file actually sent (assets/x.js.br for assets/x.js): Cache-Control set
      // here wins over maxAge.
      setHeaders: (res: ServerResponse, filePath: string) => {
        const relative = filePath.slice(root.length);
        if (relative.startsWith(assetsDir)) res.setHeader('Cache-Control', yearImmutable);
        else if (/\.html(\.br|\.gz)?$/.test(relative)) {
          res.setHeader('Cache-Control', 'no-cache');
          // /app's page depends on the session cookie (showsApp below); set here, after the
          // middleware's own Vary: Accept-Encoding.
          if ((res as Response).locals?.variesWithCookie) res.setHeader('Vary', 'Accept-Encoding, Cookie');
        }
      },
    },
  }) as RequestHandler;

  const routes = Router();
  routes.use(serve);
  // A hashed file that is not in this build (an old tab after a deploy) is a 404, not the page.
  routes.get('/assets/{*file}', (_req, res) => void res.status(404).type('text/plain').send('Not found'));
  const prerendered = prerenderedPages(root);
  // Client routes (and, without prerendered pages, the not-found page) are the single-page app's
  // business: index.html, precompressed like the rest.
  routes.get('/{*splat}', (req, res, next) => {
    const url = req.url;
    let page = prerendered?.pageFor(req.path);
    if (page === 'not-found') res.status(404);
    if (page === 'app' && options.showsApp) {
      res.locals.variesWithCookie = true;
      if (!options.showsApp(req)) page = undefined;
    }
    // /app?chat={id} opens a conversation: its placeholder shows one loading, not a new one's greeting.
    if (page === 'app' && req.query.chat !== undefined && prerendered?.has('app-chat')) page = 'app-chat';
    req.url = page ? `/${prerenderedDir}/${page}.html` : '/index.html';
    serve(req, res, (error?: unknown) => {
      req.url = url;
      next(error);
    });
  });
  return routes;
}

const prerenderedDir = 'prerendered';
/**
 * The prerendered public pages (scripts/prerender.mjs), by path; and /app's pages, which hold a
 * placeholder of the app shell and the chat that the app replaces (index.html otherwise).
 */
const publicPages: Record<string, string> = { '/': 'index', '/terms': 'terms', '/privacy': 'privacy', '/login': 'login', '/app': 'app' };

/** Which prerendered page a path gets, if the build prerendered them: a public page, the not-found page, or none (index.html). */
function prerenderedPages(root: string): { pageFor: (pathname: string) => string | undefined; has: (page: string) => boolean } | undefined {
  const dir = path.join(root, prerenderedDir);
  let isClientRoute: (route: string) => boolean;
  try {
    const listed: unknown = JSON.parse(fs.readFileSync(path.join(dir, 'routes.json'), 'utf8'));
    if (!Array.isArray(listed) || !listed.every((route) => typeof route === 'string')) return undefined;
    isClientRoute = clientRouteMatcher(listed);
  } catch {
    return undefined;
  }
  const built = new Set(fs.readdirSync(dir).filter((file) => file.endsWith('.html')).map((file) => file.slice(0, -'.html'.length)));
  return {
    has: (page) => built.has(page),
    pageFor(pathname) {
      // The router treats /terms/ as /terms.
      const route = pathname.length > 1 ? trimEndChars(pathname, '/') || '/' : pathname;
      const page = publicPages[route];
      if (page && built.has(page)) return page;
      if (!isClientRoute(route) && built.has('not-found')) return 'not-found';
      return undefined;
    },
  };
}

/**
 * Whether a path is one of the router's routes, as the router lists them: a segment written
 * `$name` (a parameter, /rehearsals/$id) stands for any one non-empty segment.
 */
export function clientRouteMatcher(routes: readonly string[]): (pathname: string) => boolean {
  const exact = new Set(routes.filter((route) => !route.includes('$')));
  const patterns = routes
    .filter((route) => route.includes('$'))
    .map((route) => route.split('/').map((segment) => (segment.startsWith('$') ? null : segment)));
  return (pathname) => {
    if (exact.has(pathname)) return true;
    const segments = pathname.split('/');
    return patterns.some((pattern) => pattern.length === segments.length && pattern.every((segment, i) => (segment === null ? segments[i] !== '' : segment === segments[i])));
  };
}

/**
 * Compression of dynamic answers (JSON from /api and /trpc): gzip or brotli (quality 4) when
 * the request's Accept-Encoding asks and the body is at least 1 KB. Never applied to answers
 * that must arrive as they are written: server-sent events (/api/openai with stream: true, tRPC
 * SSE subscriptions), tRPC's streamed batches (httpBatchStreamLink asks with trpc-accept:
 * application/jsonl), audio streams (/api/voice/synthesize). WebSocket upgrades never reach
 * Express (server.ts routes them), and a request that asks for one is left alone here too.
 */
export function compressAnswers(): RequestHandler {
  return compression({
    threshold: 1024,
    filter: (req: Request, res: Response) => (isStreamingRequest(req) || isStreamingAnswer(res) ? false : compression.filter(req, res)),
  });
}

function isStreamingRequest(req: Request): boolean {
  if (req.headers.upgrade) return true;
  if (req.headers['trpc-accept']) return true;
  const accept = req.headers.accept ?? '';
  return accept.includes('text/event-stream') || accept.includes('application/jsonl');
}

function isStreamingAnswer(res: Response): boolean {
  const type = String(res.getHeader('Content-Type') ?? '').toLowerCase();
  return type.startsWith('text/event-stream') || type.startsWith('application/jsonl') || type.startsWith('audio/') || type.startsWith('video/');
}
