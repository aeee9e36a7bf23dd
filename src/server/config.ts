import path from 'node:path';
import { z } from 'zod';

// The one place that reads the environment (DESIGN rule 5). Every variable is listed, with a
// comment, in .env.example; a bad value stops the start with a message naming the variable.

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./.data'),
  DATABASE_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  SESSION_SECRET: z.preprocess(
    emptyAsUndefined,
    z.string().min(32, 'must be at least 32 characters').optional(),
  ),
  DEMO_MODE: booleanFlag.default(true),
  ACCESS_KEY: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  TRUST_PROXY: booleanFlag.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  OPENAI_API_KEY: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  OPENAI_BASE_URL: z.preprocess(
    emptyAsUndefined,
    z.url({ message: 'must be a URL such as http://localhost:11434/v1' }).optional(),
  ),
  OPENAI_MODEL: z.string().min(1).default('gpt-4o'),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  sessionSecret: string | undefined;
  demoMode: boolean;
  accessKey: string | undefined;
  trustProxy: boolean;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  openai: { apiKey: string | undefined; baseUrl: string | undefined; model: string };
};

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.')}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}\nSee .env.example.`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    sessionSecret: e.SESSION_SECRET,
    demoMode: e.DEMO_MODE,
    accessKey: e.ACCESS_KEY,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    openai: { apiKey: e.OPENAI_API_KEY, baseUrl: e.OPENAI_BASE_URL, model: e.OPENAI_MODEL },
  };
}

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\./.test(host);
}
