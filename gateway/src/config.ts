import { isIP } from 'node:net';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { RESUMABLE_UPLOAD } from '@snapcracks/http-contract';
import { baseConfigSchema, optionalString, parseConfig, port, ConfigError } from '@snapcracks/kit';

/** Fastify's trustProxy in the forms the gateway accepts: off, a hop count, or addresses and CIDR ranges. */
export type TrustProxy = false | number | string[];

/** One rate limit: at most `max` requests per `windowMs`. */
export interface RateLimit {
  max: number;
  windowMs: number;
}

/** The gateway's rate limits, each configurable (RATE_LIMIT_*). */
export interface RateLimits {
  api: RateLimit;
  signIn: RateLimit;
  contact: RateLimit;
  /** Per member (plugins/member-limits.ts). */
  uploads: RateLimit;
  /** A member's uploads being received at once, per gateway replica. */
  uploadsInFlight: number;
  votes: RateLimit;
  avatars: RateLimit;
  faceSuggestions: RateLimit;
  /** Reports of photos a member sends. */
  reports: RateLimit;
}

const WINDOW_UNITS_MS = { s: 1_000, m: 60_000, h: 3_600_000 } as const;

/** `600/1m`, `5/10m`, `60/1h`: at most that many requests per window; undefined when `text` is not one. */
export function parseRateLimit(text: string): RateLimit | undefined {
  const match = /^\s*(\d{1,9})\s*\/\s*(\d{1,6})(s|m|h)\s*$/.exec(text);
  if (!match) return undefined;
  const max = Number(match[1]);
  const windowMs = Number(match[2]) * WINDOW_UNITS_MS[match[3] as keyof typeof WINDOW_UNITS_MS];
  return max > 0 && windowMs > 0 ? { max, windowMs } : undefined;
}

const rateLimitText = z.string().transform((text, ctx): RateLimit => {
  const limit = parseRateLimit(text);
  if (limit) return limit;
  ctx.addIssue({ code: 'custom', message: `expected <max>/<window> with the window in s, m or h (e.g. 600/1m), got "${text}"` });
  return z.NEVER;
});
/** A `<max>/<window>` setting; unset or empty (as a chart renders an unset value) is undefined. */
const optionalRateLimit = z.preprocess((v) => (v === '' ? undefined : v), rateLimitText.optional());
/** A `<max>/<window>` setting with its default when unset or empty. */
const rateLimit = (fallback: RateLimit) => optionalRateLimit.transform((limit) => limit ?? fallback);

const schema = baseConfigSchema.extend({
  HOST: z.string().default('0.0.0.0'),
  PORT: port(8080),
  /** The address people use, e.g. https://snapcracks.example; derived from each request when unset (development). */
  PUBLIC_URL: z.preprocess((v) => (v === '' ? undefined : v), z.string().url().optional()),
  /**
   * Whose X-Forwarded-* to believe: `false`, the number of proxies in front of the gateway (the ingress: 1), or
   * their addresses and ranges, comma-separated. Never "any": then a client would pick its own address, escaping
   * rate limits and forging log lines.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value, ctx): TrustProxy => {
      const v = value.trim();
      if (v === '' || v === 'false' || v === '0') return false;
      if (/^[1-9]\d?$/.test(v)) return Number(v);
      const ranges = v.split(',').map((r) => r.trim()).filter(Boolean);
      if (v !== 'true' && ranges.every((r) => isIP(r.split('/')[0]!) !== 0)) return ranges;
      ctx.addIssue({ code: 'custom', message: 'must be false, the number of proxies in front of the gateway (e.g. 1), or their addresses/ranges (e.g. 10.0.0.0/8)' });
      return z.NEVER;
    }),
  OIDC_ISSUER: optionalString,
  OIDC_CLIENT_ID: z.string().default('snapcracks'),
  OIDC_CLIENT_SECRET: optionalString,
  /** Signs the session cookie; at least 32 characters. Generated per process outside production. */
  SESSION_SECRET: optionalString,
  /** A session unused for this long ends. */
  SESSION_IDLE_HOURS: z.coerce.number().positive().default(24 * 7),
  /** A session ends this long after sign-in, however much it is used. */
  SESSION_MAX_HOURS: z.coerce.number().positive().default(24 * 30),
  /** An unfinished resumable upload is deleted with its bytes this long after it began (docs/resumable-uploads.md). */
  UPLOAD_RESUMABLE_HOURS: z.coerce.number().positive().max(24 * 30).default(RESUMABLE_UPLOAD.keepHours),
  /** A request must arrive whole within this time (longer than an upload's 120 s deadline). */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().positive().default(130_000),
  /** Shares the rate limits between the gateway's replicas; each keeps its own in memory without it. */
  REDIS_URL: z.preprocess((v) => (v === '' ? undefined : v), z.string().url().optional()),
  /** Calls to /api per client address (`<max>/<window>`, window in s, m or h). */
  RATE_LIMIT_API: optionalRateLimit,
  /** The former setting: requests per minute, read when RATE_LIMIT_API is unset. */
  RATE_LIMIT_PER_MINUTE: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().positive().optional()),
  /** Sign-in starts and callbacks per client address: each costs the identity provider a round trip. */
  RATE_LIMIT_SIGN_IN: rateLimit({ max: 30, windowMs: 60_000 }),
  /** Contact form submissions per client address. */
  RATE_LIMIT_CONTACT: rateLimit({ max: 5, windowMs: 600_000 }),
  /**
   * Photo uploads per signed-in member. The upload page sends one photo at a time, each picked and described by
   * hand: thirty a minute is more than a person manages (scripts and tests that upload in a loop stay under it), and
   * holds one member to thirty full-size decodes a minute. What one member has at once is RATE_LIMIT_UPLOADS_IN_FLIGHT.
   */
  RATE_LIMIT_UPLOADS: rateLimit({ max: 30, windowMs: 60_000 }),
  /**
   * A member's uploads being received at once, counted by each gateway replica (not shared through Redis): the web
   * app sends one at a time, so two leave room for a retry while the first is still closing.
   */
  RATE_LIMIT_UPLOADS_IN_FLIGHT: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).max(1_000).default(2)),
  /** Votes per signed-in member: rating a whole gallery page quickly stays far below it. */
  RATE_LIMIT_VOTES: rateLimit({ max: 600, windowMs: 60_000 }),
  /** Avatar uploads per signed-in member. */
  RATE_LIMIT_AVATARS: rateLimit({ max: 10, windowMs: 60_000 }),
  /** Face-suggestion requests per signed-in member: the upload page asks once per chosen photo. */
  RATE_LIMIT_FACE_SUGGESTIONS: rateLimit({ max: 30, windowMs: 60_000 }),
  /** Reports a member sends: enough for a member who finds a run of bad photos, too few to flood the reviewers. */
  RATE_LIMIT_REPORTS: rateLimit({ max: 10, windowMs: 3_600_000 }),
  WEB_DIST: z.string().default(fileURLToPath(new URL('../../web/dist', import.meta.url))),
});

export type GatewayConfig = z.output<typeof schema> & { rateLimits: RateLimits };

export function loadGatewayConfig(env: Record<string, string | undefined> = process.env): GatewayConfig {
  const parsed = parseConfig(schema, env);
  const config: GatewayConfig = {
    ...parsed,
    rateLimits: {
      api: parsed.RATE_LIMIT_API ?? { max: parsed.RATE_LIMIT_PER_MINUTE ?? 600, windowMs: 60_000 },
      signIn: parsed.RATE_LIMIT_SIGN_IN,
      contact: parsed.RATE_LIMIT_CONTACT,
      uploads: parsed.RATE_LIMIT_UPLOADS,
      uploadsInFlight: parsed.RATE_LIMIT_UPLOADS_IN_FLIGHT,
      votes: parsed.RATE_LIMIT_VOTES,
      avatars: parsed.RATE_LIMIT_AVATARS,
      faceSuggestions: parsed.RATE_LIMIT_FACE_SUGGESTIONS,
      reports: parsed.RATE_LIMIT_REPORTS,
    },
  };
  if (config.NODE_ENV === 'production') {
    const missing = (['OIDC_ISSUER', 'OIDC_CLIENT_SECRET', 'PUBLIC_URL'] as const).filter((k) => !config[k]);
    if (missing.length) throw new ConfigError(`Invalid configuration: ${missing.join(', ')}: required in production`);
  }
  return config;
}
