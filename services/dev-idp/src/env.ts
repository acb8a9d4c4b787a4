import { z } from 'zod';

/** Empty strings count as unset, so `FOO=` in a .env file means "use the default". */
const unsetIfEmpty = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === '' ? undefined : value), schema);
const httpUrl = z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' });

const devIdpEnvSchema = z.object({
  DEV_IDP_PORT: unsetIfEmpty(z.coerce.number().int().min(0).max(65535).default(8081)),
  /** 127.0.0.1; 0.0.0.0 only inside a container whose port the host publishes on its loopback (index.ts). */
  DEV_IDP_HOST: unsetIfEmpty(z.string().min(1).default('127.0.0.1')),
  OIDC_CLIENT_ID: unsetIfEmpty(z.string().min(1).default('snapcracks')),
  OIDC_CLIENT_SECRET: unsetIfEmpty(z.string().min(1).optional()),
  OIDC_REDIRECT_URI: unsetIfEmpty(httpUrl.default('http://localhost:8080/api/callback')),
  OIDC_POST_LOGOUT_REDIRECT_URI: unsetIfEmpty(httpUrl.default('http://localhost:8080/')),
});

export interface DevIdpEnv {
  port: number;
  host: string;
  clientId: string;
  /** Undefined when not configured: the standalone runner then makes one up for this run. */
  clientSecret: string | undefined;
  redirectUri: string;
  postLogoutRedirectUri: string;
}

/** Parses the standalone runner's environment; throws one line naming every bad variable. */
export function parseDevIdpEnv(env: Record<string, string | undefined>): DevIdpEnv {
  const result = devIdpEnvSchema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  const { data } = result;
  return {
    port: data.DEV_IDP_PORT,
    host: data.DEV_IDP_HOST,
    clientId: data.OIDC_CLIENT_ID,
    clientSecret: data.OIDC_CLIENT_SECRET,
    redirectUri: data.OIDC_REDIRECT_URI,
    postLogoutRedirectUri: data.OIDC_POST_LOGOUT_REDIRECT_URI,
  };
}
