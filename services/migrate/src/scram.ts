import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';

/** PostgreSQL's own default (scram_iterations). */
const ITERATIONS = 4096;

/**
 * The SCRAM-SHA-256 verifier PostgreSQL stores for `password` (RFC 5802/7677, as libpq's PQencryptPasswordConn and
 * psql's \password make it): `SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>`. Sending the verifier in
 * CREATE/ALTER ROLE … PASSWORD, rather than the password, keeps the password itself out of the server's statement
 * log and pg_stat_activity. The server stores a verifier as given whatever password_encryption says, and an md5
 * line in pg_hba.conf then authenticates with SCRAM.
 *
 * Only printable ASCII: PostgreSQL runs a password through SASLprep first, which leaves such a password unchanged
 * but may change others, so anything else is refused rather than risk a verifier the server would not match.
 */
export function scramSha256Verifier(password: string, salt: Buffer = randomBytes(16), iterations = ITERATIONS): string {
  if (!/^[\x20-\x7e]+$/.test(password)) throw new Error('a database password must be printable ASCII, at least one character');
  const salted = pbkdf2Sync(password, salt, iterations, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}
