import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { baseConfigSchema, envBoolean, optionalString, parseConfig, port, ConfigError } from '@snapcracks/kit';

const schema = baseConfigSchema.extend({
  HOST: z.string().default('0.0.0.0'),
  PORT: port(8080),
  /** The address people use, e.g. https://snapcracks.example; derived from each request when unset (development). */
  PUBLIC_URL: z.preprocess((v) => (v === '' ? undefined : v), z.string().url().optional()),
  /** Trust X-Forwarded-* from the ingress in front of the gateway (needed for Secure cookies behind TLS). */
  TRUST_PROXY: envBoolean(false),
  OIDC_ISSUER: optionalString,
  OIDC_CLIENT_ID: z.string().default('snapcracks'),
  OIDC_CLIENT_SECRET: optionalString,
  /** Signs the session cookie; at least 32 characters. Generated per process outside production. */
  SESSION_SECRET: optionalString,
  SESSION_TTL_HOURS: z.coerce.number().positive().default(24 * 7),
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
