import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app.js';
import { undocumentedRoutes } from '../../src/server/http/openapi.js';
import { apiRoutesOf } from '../helpers/routes.js';
import { HttpClient, startTestServer, type TestServer } from '../helpers/server.js';

// GET /api/openapi.json documents every REST path the app registers: a new route
// without an entry in src/server/http/openapi.ts fails here.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

type Document = { openapi: string; paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Record<string, unknown> }> }; responses: Record<string, unknown> }>> };

describe('the OpenAPI document', () => {
  it('documents every registered REST route, and nothing that is not one', async () => {
    const res = await new HttpClient(server.url).get('/api/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.json as Document;
    expect(doc.openapi).toBe('3.1.0');
    const skipped = new Set(undocumentedRoutes.map((r) => `${r.method.toUpperCase()} ${r.path}`));
    const registered = apiRoutesOf(createApp(server.deps))
      .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`)
      .filter((route) => !skipped.has(route));
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
    expect(registered.length).toBeGreaterThan(30);
    expect(registered.filter((route) => !documented.includes(route)), 'registered but not documented').toEqual([]);
    expect(documented.filter((route) => !registered.includes(route)), 'documented but not registered').toEqual([]);
  });

  it('describes request bodies with the schemas the procedures validate with', async () => {
    const doc = (await new HttpClient(server.url).get('/api/openapi.json')).json as Document;
    const register = doc.paths['/api/auth/register']!.post!.requestBody!.content['application/json']!.schema;
    expect(register).toMatchObject({ type: 'object', required: expect.arrayContaining(['username', 'password', 'fullName']) });
    const keys = doc.paths['/api/api-keys']!.post!;
    expect(keys.requestBody!.content['application/json']!.schema).toMatchObject({ properties: { name: { type: 'string', maxLength: 60 } } });
    expect(keys.responses).toHaveProperty('201');
    expect(doc.paths['/api/api-keys/{id}']!.delete!.responses).toHaveProperty('204');
  });

  it('serves the interactive reference with no inline script', async () => {
    const http = new HttpClient(server.url);
    const page = await http.get('/api/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.text).not.toMatch(/<script>(?!<)/);
    for (const src of page.text.matchAll(/<(?:script src|link rel="stylesheet" href)="([^"]+)"/g)) {
      expect((await http.get(src[1]!)).status, src[1]).toBe(200);
    }
  });
});
