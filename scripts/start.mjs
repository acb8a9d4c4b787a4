#!/usr/bin/env node
// `pnpm start` / `pnpm dev`: builds the web app when its sources changed, then runs every component in one
// process (services/all-in-one). With --dev the gateway serves web/ through Vite with hot reload instead.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dev = process.argv.includes('--dev');

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).filter((n) => n !== 'node_modules' && n !== 'dist').map((n) => newestMtime(join(path, n))));
}

if (!dev) {
  const built = join(root, 'web/dist/index.html');
  const sources = ['src', 'public', 'index.html', 'vite.config.ts', 'package.json'].map((p) => join(root, 'web', p)).filter(existsSync);
  if (!existsSync(built) || Math.max(...sources.map(newestMtime)) > statSync(built).mtimeMs) {
    console.log('Building the web app…');
    const build = spawnSync('pnpm', ['--filter', '@snapcracks/web', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
}

const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'services/all-in-one/src/main.ts')], {
  cwd: root,
  // The IPC channel lets the product notice if this launcher is killed, and stop with it.
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  // MALLOC_ARENA_MAX=2: without it glibc gives each of the many threads that libvips (sharp) and the
  // media worker pool run on an allocation arena of its own, and the memory freed after a photo stays
  // scattered over them; measured with `pnpm bench:upload`, about 100 MB less growth under 4 uploads at
  // once. A value the user set is kept.
  env: { MALLOC_ARENA_MAX: '2', ...process.env, ...(dev ? { WEB_DEV: 'true' } : {}) },
});
// Ctrl-C reaches the child through the terminal's process group; pass on a SIGTERM sent to this process.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => child.kill('SIGTERM'));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
