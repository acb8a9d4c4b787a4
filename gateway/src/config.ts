import { isIP } from 'node:net';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { baseConfigSchema, optionalString, parseConfig, port, ConfigError } from '@snapcracks/kit';

/** Fastify's trustProxy in the forms the gateway accepts: off, a hop count, or addresses and CIDR ranges. */
export type TrustProxy = false | number | string[];

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
  /** A request must arrive whole within this time (longer than an upload's 120 s deadline). */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().positive().default(130_000),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),
  WEB_DIST: z.string().default(fileURLToPath(new URL('../../web/dist', import.meta.url))),
});

export type GatewayConfig = z.output<typeof schema>;

export function loadGatewayConfig(env: Record<string, string | undefined> = process.env): GatewayConfig {
  const config = parseConfig(schema, env);
  if (config.NODE_ENV === 'production') {
    const missing = (['OIDC_ISSUER', 'OIDC_CLIENT_SECRET', 'PUBLIC_URL'] as const).filter((k) => !config[k]);
    if (missing.length) throw new ConfigError(`Invalid configuration: ${missing.join(', ')}: required in production`);
  }
  return config;
}
