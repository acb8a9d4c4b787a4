/**
 * Writes a new migration for one component from the change in its Prisma schema:
 *   pnpm db:migration <auth|photo|…|gateway> <name>
 * The datamodel as of the last migration is kept beside the migrations (schema.snapshot.prisma), so Prisma
 * can diff schema to schema without a database; the snapshot is then moved forward.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { componentDir, COMPONENTS } from './components.js';

const [component, rawName] = process.argv.slice(2);
if (!component || !rawName || !COMPONENTS.includes(component)) {
  console.error(`Usage: pnpm db:migration <${COMPONENTS.join('|')}> <name>`);
  process.exit(64);
}
const dir = componentDir(component);
const schema = join(dir, 'prisma/schema.prisma');
const snapshot = join(dir, 'prisma/migrations/schema.snapshot.prisma');
const from = existsSync(snapshot) ? ['--from-schema-datamodel', snapshot] : ['--from-empty'];
const generated = execFileSync('pnpm', ['exec', 'prisma', 'migrate', 'diff', ...from, '--to-schema-datamodel', schema, '--script'], {
  cwd: dir,
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
});
// The runner creates the component's own schema and sets search_path, so the migration names none.
const sql = generated.replace(/-- CreateSchema\nCREATE SCHEMA IF NOT EXISTS "[^"]+";\n+/g, '');
if (!/^(CREATE|ALTER|DROP)/m.test(sql)) {
  console.log(`${component}: the schema has not changed since the last migration; nothing written.`);
  process.exit(0);
}
const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
const name = rawName.toLowerCase().replace(/[^a-z0-9]+/g, '_');
const target = join(dir, 'prisma/migrations', `${stamp}_${name}`);
mkdirSync(target, { recursive: true });
writeFileSync(join(target, 'migration.sql'), sql);
copyFileSync(schema, snapshot);
console.log(`Wrote ${target}/migration.sql`);
