import type http from 'node:http';
import { createServer } from 'vite';
import { devScriptNonce } from '../http/security.js';

// `npm run dev`: Vite serves the client (with hot reload) from inside our one server.
export async function attachViteDevServer(server: http.Server) {
  const vite = await createServer({
    server: { middlewareMode: true, ws: { server } },
    appType: 'spa',
    // The dev CSP allows inline scripts carrying this nonce only (security.ts).
    html: { cspNonce: devScriptNonce },
  });
  return { middleware: vite.middlewares as unknown as import('express').RequestHandler, close: () => vite.close() };
}
