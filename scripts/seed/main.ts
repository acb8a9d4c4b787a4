/**
 * `pnpm seed [options]`: fills a database with members, photos and votes, every read model consistent (see seed.ts),
 * printing how long each table took. Creates the database when it does not exist and applies the migrations first.
 *
 *   --database-url URL   the database (default DATABASE_URL, else postgresql://postgres@127.0.0.1:5432/snapcracks)
 *   --users N            members (default 10,000)
 *   --photos N           photos (default 100,000)
 *   --votes N            votes (default 1,000,000)
 *   --images N           distinct real images the photos share (default 8)
 *   --storage-dir DIR    where storage keeps local blobs: STORAGE_DIR, else <DATA_DIR>/uploads (default .data/uploads,
 *                        where `pnpm start` looks), so the images load in the product run on this database
 *   --seed N             seeds the random draws (default 1)
 *   --force              seed even though the database already has photos (adds to them)
 *   --verify             check every read model afterwards (as `pnpm seed:verify`)
 *
 * The members are user-<n>@seed.snapcracks.test: sign in as any of them on the development sign-in page.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { count, databaseUrlFor, pg, quoteIdent, seconds } from './db.js';
import { SeedRefusedError, seedDatabase, seedEmail } from './seed.js';
import { printChecks, verifyDatabase } from './verify.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    users: { type: 'string', default: '10000' },
    photos: { type: 'string', default: '100000' },
    votes: { type: 'string', default: '1000000' },
    images: { type: 'string', default: '8' },
    'storage-dir': { type: 'string' },
    seed: { type: 'string', default: '1' },
    force: { type: 'boolean', default: false },
    verify: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  console.log('pnpm seed [--database-url URL] [--users N] [--photos N] [--votes N] [--images N] [--storage-dir DIR] [--seed N] [--force] [--verify]');
  process.exit(0);
}

const wholeNumber = (name: string, raw: string) => {
  const value = Number(raw.replaceAll('_', '').replaceAll(',', ''));
  if (!Number.isSafeInteger(value) || value < 0) {
    console.error(`--${name} must be a whole number, not ${raw}`);
    process.exit(64);
  }
  return value;
};

const databaseUrl = values['database-url'] ?? process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/snapcracks';
const storageDir = values['storage-dir'] ?? process.env.STORAGE_DIR ?? join(process.env.DATA_DIR ?? join(root, '.data'), 'uploads');

/** Creates the database named in the URL when the server does not have it. */
async function ensureDatabase(url: string): Promise<boolean> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const client = new pg.Client({ connectionString: databaseUrlFor(url, 'postgres') });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return false;
    await client.query(`CREATE DATABASE ${quoteIdent(name)}`);
    return true;
  } finally {
    await client.end();
  }
}

const safeUrl = (url: string) => {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
};

try {
  const options = {
    databaseUrl,
    users: wholeNumber('users', values.users),
    photos: wholeNumber('photos', values.photos),
    votes: wholeNumber('votes', values.votes),
    images: wholeNumber('images', values.images),
    seed: wholeNumber('seed', values.seed),
    force: values.force,
    storageDir,
  };
  const created = await ensureDatabase(databaseUrl);
  console.log(
    `Seeding ${safeUrl(databaseUrl)}${created ? ' (created)' : ''}: ${count(options.users)} members, ${count(options.photos)} photos, ${count(options.votes)} votes, ` +
      `${options.images} real images in ${storageDir}, seed ${options.seed}\n`,
  );
  const report = await seedDatabase({ ...options, log: (line) => console.log(line) });
  console.log(
    `\nMean rating ${report.meanRating.toFixed(2)}. Members ${seedEmail(report.firstUser)} (an admin) to ${seedEmail(report.firstUser + options.users - 1)}: ` +
      'sign in as any of them on the development sign-in page.',
  );
  if (values.verify) {
    const started = performance.now();
    const checks = await verifyDatabase(databaseUrl);
    printChecks(checks);
    console.log(`Checked in ${seconds(performance.now() - started)}`);
    if (checks.some((c) => !c.ok)) process.exit(1);
  }
} catch (error) {
  if (error instanceof SeedRefusedError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
