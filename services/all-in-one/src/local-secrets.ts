import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

/**
 * Outside production, a secret that is not configured is generated once and kept in the data directory,
 * so sessions survive a restart of `pnpm start`. Production never gets here: it requires real values.
 */
export function localSecret(dataDir: string, name: string): string {
  const file = join(dataDir, `${name.toLowerCase()}.secret`);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
