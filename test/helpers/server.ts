import pino from 'pino';
import { loadConfig, type Config } from '../../src/server/config.js';
import { startServer, type RunningServer, type StartOptions } from '../../src/server/server.js';
import { freshDatabase, type FreshDatabase } from './database.js';

export type TestServer = RunningServer & { database: FreshDatabase; stop: () => Promise<void> };

// The real app on an ephemeral port with a fresh migrated database.
export async function startTestServer(
  env: Record<string, string | undefined> = {},
  database?: FreshDatabase,
  options: Omit<StartOptions, 'log'> = {},
): Promise<TestServer> {
  const db = database ?? (await freshDatabase());
  const config: Config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: db.dataDir,
    DATABASE_URL: db.databaseUrl,
    SESSION_SECRET: 'test-session-secret-that-is-long-enough-0123456789',
    ...env,
  });
  const server = await startServer(config, { ...options, log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }) });
  return {
    ...server,
    database: db,
    stop: async () => {
      await server.close();
      if (!database) await db.dispose();
    },
  };
}

// A tiny browser-like HTTP client: keeps cookies, sends JSON, sends a same-site Origin. It does not
// follow redirects: a test sees the server's own answer (a redirect's target may be the client
// build, which server tests run without).
export class HttpClient {
  private cookies = new Map<string, string>();
  /** `origin: false` and `headers` make a script's client instead (e.g. an API key, no Origin). */
  constructor(
    private readonly baseUrl: string,
    private readonly options: { origin?: boolean; headers?: Record<string, string> } = {},
  ) {}

  get cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(this.baseUrl + path, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.cookies.size ? { cookie: this.cookieHeader } : {}),
        ...(this.options.origin === false ? {} : { origin: this.baseUrl }),
        ...this.options.headers,
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      redirect: 'manual',
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, ...rest] = pair!.split('=');
      const value = rest.join('=');
      const expired = attributes.some((a) => /max-age=0/i.test(a.trim())) || value === '';
      if (expired) this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value);
    }
    const text = await res.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, json, text, headers: res.headers };
  }

  get = (path: string, headers?: Record<string, string>) => this.request('GET', path, undefined, headers);
  post = (path: string, body?: unknown, headers?: Record<string, string>) => this.request('POST', path, body ?? {}, headers);
  put = (path: string, body?: unknown) => this.request('PUT', path, body ?? {});
  delete = (path: string) => this.request('DELETE', path);
}
