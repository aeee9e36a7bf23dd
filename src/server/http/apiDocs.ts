import { createRequire } from 'node:module';
import path from 'node:path';
import express, { Router } from 'express';
import { openApiDocument } from './openapi.js';

// GET /api/openapi.json and the interactive reference at /api/docs (Swagger UI from the
// swagger-ui-dist package, loaded on that page only). The page has no inline script, so the
// app's Content-Security-Policy (script-src 'self') holds here too.

const require = createRequire(import.meta.url);
const swaggerUiDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));

const page = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>AI Coach API reference</title>
    <link rel="stylesheet" href="/api/docs/assets/swagger-ui.css" />
  </head>
  <body>
    <main id="swagger-ui"></main>
    <script src="/api/docs/assets/swagger-ui-bundle.js"></script>
    <script src="/api/docs/init.js"></script>
  </body>
</html>
`;

const init = `window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#swagger-ui', deepLinking: true, tryItOutEnabled: false });\n`;

export function apiDocsRoutes(): Router {
  const routes = Router();
  routes.get('/api/openapi.json', (_req, res) => void res.json(openApiDocument()));
  routes.get('/api/docs', (_req, res) => void res.type('html').set('Cache-Control', 'no-cache').send(page));
  routes.get('/api/docs/init.js', (_req, res) => void res.type('application/javascript').set('Cache-Control', 'no-cache').send(init));
  routes.use('/api/docs/assets', express.static(swaggerUiDir, { index: false, maxAge: '1d', fallthrough: false }));
  return routes;
}
