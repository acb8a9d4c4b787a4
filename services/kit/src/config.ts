import { IdentityKeyring } from './grpc/identity.js';
import { z } from 'zod';
import type { DatabaseSettings } from './db.js';
import type { StreamSettings } from './bus/stream-settings.js';

/** Thrown when the environment does not satisfy a service's config schema. The message is one line. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses `env` with `schema`; every problem is listed in one line, e.g. `Invalid configuration: PORT: expected number`. */
export function parseConfig<S extends z.ZodType>(schema: S, env: Record<string, string | undefined> = process.env): z.output<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
}

/** Like parseConfig, but a wrong value stops the process with that one line on stderr. */
export function loadConfig<S extends z.ZodType>(schema: S, env: Record<string, string | undefined> = process.env): z.output<S> {
  return exitOnConfigError(() => parseConfig(schema, env));
}

/** Runs a config loader; a ConfigError stops the process with its one line on stderr (exit code 78, EX_CONFIG). */
export function exitOnConfigError<T>(load: () => T): T {
  try {
    return load();
  } catch (error) {
    return exitIfConfigError(error);
  }
}

/** Like exitOnConfigError, for a start-up step that finds a missing setting only once it runs. */
export async function exitOnConfigErrorAsync<T>(start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    return exitIfConfigError(error);
  }
}

function exitIfConfigError(error: unknown): never {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(78);
}

/** Empty strings count as unset, so `FOO=` in a .env file means "use the default". */
export const optionalString = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());

const booleanText = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');
export const envBoolean = (defaultValue: boolean) =>
  z.preprocess((v) => (v === '' || v === undefined ? String(defaultValue) : v), booleanText);

export const port = (defaultValue: number) =>
  z.preprocess((v) => (v === '' || v === undefined ? defaultValue : v), z.coerce.number().int().min(0).max(65535));

const DURATION_UNITS_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `90s`, `10m`, `1h`, `7d` (or `250ms`) in milliseconds; undefined when `text` is not one. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d{1,9})(ms|s|m|h|d)$/.exec(text.trim());
  return match ? Number(match[1]) * DURATION_UNITS_MS[match[2] as keyof typeof DURATION_UNITS_MS] : undefined;
}

/** A duration setting such as `7d`; `0` means none (no limit). */
export const envDuration = (defaultValue: string) =>
  z.preprocess(
    (v) => (v === '' || v === undefined ? defaultValue : v),
    z.string().transform((text, ctx) => {
      if (text.trim() === '0') return 0;
      const ms = parseDuration(text);
      if (ms !== undefined) return ms;
      ctx.addIssue({ code: 'custom', message: `expected a duration such as 90s, 10m, 1h or 7d (or 0 for none), got "${text}"` });
      return z.NEVER;
    }),
  );

const wholeNumber = (min: number, max: number) =>
  z.coerce
    .number({ error: 'expected a whole number' })
    .int('expected a whole number')
    .min(min, `expected a whole number of at least ${min}`)
    .max(max, `expected a whole number of at most ${max}`);

/** A whole number setting with a default; empty counts as unset. */
export const envInteger = (defaultValue: number, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess((v) => (v === '' || v === undefined ? defaultValue : v), wholeNumber(min, max));

/** A whole number setting that may stay unset. */
export const optionalEnvInteger = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess((v) => (v === '' ? undefined : v), wholeNumber(min, max).optional());

/** Settings every service process shares. */
export const baseConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** This component's Ed25519 private key (base64 PKCS#8 DER), from `pnpm identity:keys`. */
  IDENTITY_PRIVATE_KEY: optionalString,
  /** Every component's public key, `name=<base64 SPKI DER>,…`, from `pnpm identity:keys`. */
  IDENTITY_PUBLIC_KEYS: optionalString,
  /** Development only: every component's keys derived from this one shared secret (at least 32 characters). */
  IDENTITY_SECRET: optionalString,
  OTEL_SERVICE_NAME: optionalString,
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalString,
  /** Connections of this component's pool; each component has its own default (gateway 10, vote 10, photo 8, others 5). */
  DATABASE_POOL_MAX: optionalEnvInteger(1, 1000),
  DATABASE_CONNECT_TIMEOUT_MS: envInteger(5_000, 1),
  /** 0: no limit from here (the server's or the role's setting applies). */
  DATABASE_STATEMENT_TIMEOUT_MS: envInteger(30_000, 0),
  /** PostgreSQL itself when DATABASE_URL goes through PgBouncer in transaction mode: migrations and advisory locks. */
  DATABASE_DIRECT_URL: z.preprocess((v) => (v === '' ? undefined : v), z.string().url().optional()),
  /** One deadline for the whole shutdown, inside the platform's grace period (Kubernetes: terminationGracePeriodSeconds). */
  SHUTDOWN_TIMEOUT_MS: envInteger(20_000, 1_000),
  NATS_STREAM_REPLICAS: envInteger(1, 1, 5),
  NATS_STREAM_STORAGE: z.preprocess((v) => (v === '' || v === undefined ? 'file' : v), z.enum(['file', 'memory'])),
  /** How long events stay in the stream: how far back a new consumer can start, how long a consumer may be down. */
  NATS_STREAM_MAX_AGE: envDuration('7d'),
  NATS_DEAD_LETTER_REPLICAS: envInteger(1, 1, 5),
  NATS_DEAD_LETTER_MAX_AGE: envDuration('30d'),
});
export type BaseConfig = z.output<typeof baseConfigSchema>;

/** The database settings a process gives its components (Platform.database), from its configuration. */
export function databaseSettings(config: Pick<BaseConfig, 'DATABASE_POOL_MAX' | 'DATABASE_CONNECT_TIMEOUT_MS' | 'DATABASE_STATEMENT_TIMEOUT_MS' | 'DATABASE_DIRECT_URL'>): DatabaseSettings {
  return {
    poolMax: config.DATABASE_POOL_MAX,
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    directUrl: config.DATABASE_DIRECT_URL,
  };
}

/** The JetStream streams' settings (createNatsEventBus's `streams`), from the process's configuration. */
export function natsStreamSettings(
  config: Pick<BaseConfig, 'NATS_STREAM_REPLICAS' | 'NATS_STREAM_STORAGE' | 'NATS_STREAM_MAX_AGE' | 'NATS_DEAD_LETTER_REPLICAS' | 'NATS_DEAD_LETTER_MAX_AGE'>,
): StreamSettings {
  return {
    events: { replicas: config.NATS_STREAM_REPLICAS, storage: config.NATS_STREAM_STORAGE, maxAgeMs: config.NATS_STREAM_MAX_AGE },
    deadLetters: { replicas: config.NATS_DEAD_LETTER_REPLICAS, maxAgeMs: config.NATS_DEAD_LETTER_MAX_AGE },
  };
}

/**
 * Production refuses development defaults: a secret must be given and long enough. Outside production a
 * missing secret is replaced by a random one that lives as long as the process (all-in-one shares it).
 */
export function resolveSecret(name: string, value: string | undefined, nodeEnv: string): string {
  if (value && value.length >= 32) return value;
  if (nodeEnv === 'production') {
    throw new ConfigError(`Invalid configuration: ${name}: required in production, at least 32 characters`);
  }
  if (value) throw new ConfigError(`Invalid configuration: ${name}: at least 32 characters`);
  return developmentSecret(name);
}

const generatedSecrets = new Map<string, string>();
function developmentSecret(name: string): string {
  let secret = generatedSecrets.get(name);
  if (!secret) {
    secret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
    generatedSecrets.set(name, secret);
  }
  return secret;
}

/**
 * The identity keys of a component running as its own process: its private key and everyone's public keys. A
 * shared IDENTITY_SECRET (every key derived from it) is a development convenience and refused in production.
 */
export function resolveIdentityKeyring(
  component: string,
  env: { IDENTITY_PRIVATE_KEY?: string | undefined; IDENTITY_PUBLIC_KEYS?: string | undefined; IDENTITY_SECRET?: string | undefined },
  nodeEnv: string,
): IdentityKeyring {
  if (env.IDENTITY_PRIVATE_KEY || env.IDENTITY_PUBLIC_KEYS) {
    if (!env.IDENTITY_PRIVATE_KEY || !env.IDENTITY_PUBLIC_KEYS) {
      throw new ConfigError('Invalid configuration: IDENTITY_PRIVATE_KEY and IDENTITY_PUBLIC_KEYS go together (pnpm identity:keys prints both)');
    }
    try {
      return IdentityKeyring.fromConfig(component, env.IDENTITY_PRIVATE_KEY, env.IDENTITY_PUBLIC_KEYS);
    } catch (error) {
      throw new ConfigError(`Invalid configuration: ${(error as Error).message}`);
    }
  }
  if (nodeEnv === 'production') {
    throw new ConfigError('Invalid configuration: IDENTITY_PRIVATE_KEY, IDENTITY_PUBLIC_KEYS: required in production (pnpm identity:keys prints them)');
  }
  if (!env.IDENTITY_SECRET || env.IDENTITY_SECRET.length < 32) {
    throw new ConfigError('Invalid configuration: IDENTITY_PRIVATE_KEY and IDENTITY_PUBLIC_KEYS (or, outside production, an IDENTITY_SECRET of at least 32 characters shared by every process)');
  }
  return IdentityKeyring.fromSharedSecret(env.IDENTITY_SECRET);
}
