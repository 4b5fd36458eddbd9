/**
 * Configuration from the environment: the only reader of process.env in the server.
 */
import path from 'node:path';
import { z } from 'zod';
import { canonicalIp } from './domain/ip-address.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const EnvSchema = z.object({
  ONAIR_HOST: z.string().min(1).default('0.0.0.0'),
  ONAIR_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  ONAIR_DATA_DIR: z.string().min(1).default('./data'),
  ONAIR_BASE_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://graphics.example.com' })
    .optional(),
  ONAIR_LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  ONAIR_BOOTSTRAP_KEY: z
    .string()
    .regex(/^onair_sk_[A-Za-z0-9]{23,}$/, 'must start with onair_sk_ and be at least 32 characters of base62')
    .optional(),
  ONAIR_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  ONAIR_DB_SYNC: z.enum(['full', 'normal']).default('full'),
  ONAIR_DRAIN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  ONAIR_TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform((text, ctx) => {
      const addresses = text
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean);
      const canonical = addresses.map((a) => canonicalIp(a));
      const bad = addresses.filter((_, i) => canonical[i] === null);
      if (bad.length > 0) ctx.addIssue({ code: 'custom', message: `not IP addresses: ${bad.join(', ')}` });
      return new Set(canonical.filter((a): a is string => a !== null));
    }),
  ONAIR_SESSION_TTL_S: z.coerce
    .number()
    .int()
    .min(1)
    .max(30 * 24 * 3600)
    .default(24 * 3600),
});

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** Public base URL without a trailing slash; when unset it follows the bound port. */
  baseUrl: string | undefined;
  logLevel: (typeof LOG_LEVELS)[number];
  bootstrapKey: string | undefined;
  metricsToken: string | undefined;
  dbSync: 'full' | 'normal';
  drainTimeoutMs: number;
  sessionTtlSeconds: number;
  /** Reverse proxies whose X-Forwarded-For names the client (canonical addresses); empty: none. */
  trustedProxies: ReadonlySet<string>;
}

export class ConfigError extends Error {}

/** Parses the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${String(i.path[0])}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    host: e.ONAIR_HOST,
    port: e.ONAIR_PORT,
    dataDir: path.resolve(e.ONAIR_DATA_DIR),
    baseUrl: e.ONAIR_BASE_URL?.replace(/\/+$/, ''),
    logLevel: e.ONAIR_LOG_LEVEL,
    bootstrapKey: e.ONAIR_BOOTSTRAP_KEY,
    metricsToken: e.ONAIR_METRICS_TOKEN,
    dbSync: e.ONAIR_DB_SYNC,
    drainTimeoutMs: e.ONAIR_DRAIN_TIMEOUT_MS,
    sessionTtlSeconds: e.ONAIR_SESSION_TTL_S,
    trustedProxies: e.ONAIR_TRUSTED_PROXIES,
  };
}
