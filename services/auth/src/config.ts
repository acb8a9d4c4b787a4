import { z } from 'zod';
import { parseConfig } from '@snapcracks/kit';

const schema = z.object({
  /** Comma-separated emails made administrators at sign-in, with a verified email, as a bootstrap (see AuthService.signIn). */
  ADMIN_EMAILS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    ),
});

export type AuthConfig = z.output<typeof schema>;
export const loadAuthConfig = (env: Record<string, string | undefined> = process.env): AuthConfig => parseConfig(schema, env);
