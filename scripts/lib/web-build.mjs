// Builds the web app into web/dist when its sources are newer than the last build: what `pnpm start` and
// `pnpm start:split` serve.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).filter((n) => n !== 'node_modules' && n !== 'dist').map((n) => newestMtime(join(path, n))));
}

/** Returns false when the build failed (its output went to the terminal). */
export function ensureWebBuilt(root) {
  const built = join(root, 'web/dist/index.html');
  const sources = ['src', 'public', 'index.html', 'vite.config.ts', 'package.json'].map((p) => join(root, 'web', p)).filter(existsSync);
  if (existsSync(built) && Math.max(...sources.map(newestMtime)) <= statSync(built).mtimeMs) return true;
  console.log('Building the web app…');
  return spawnSync('pnpm', ['--filter', '@snapcracks/web', 'build'], { cwd: root, stdio: 'inherit' }).status === 0;
}
