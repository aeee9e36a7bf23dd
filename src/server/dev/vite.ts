import type http from 'node:http';
import { createServer } from 'vite';

// `npm run dev`: Vite serves the client (with hot reload) from inside our one server.
export async function attachViteDevServer(server: http.Server) {
  const vite = await createServer({
    server: { middlewareMode: true, ws: { server } },
    appType: 'spa',
  });
  return { middleware: vite.middlewares as unknown as import('express').RequestHandler, close: () => vite.close() };
}
