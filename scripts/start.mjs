#!/usr/bin/env node
// `pnpm start` / `pnpm dev`: builds the web app when its sources changed, then runs every component in one
// process (services/all-in-one), listening on 127.0.0.1 unless HOST says otherwise. With --dev the gateway serves web/
// through Vite with hot reload instead.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureWebBuilt } from './lib/web-build.mjs';
import { startEnvironment } from './lib/start-env.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dev = process.argv.includes('--dev');

if (!dev && !ensureWebBuilt(root)) process.exit(1);

const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'services/all-in-one/src/main.ts')], {
  cwd: root,
  // The IPC channel lets the product notice if this launcher is killed, and stop with it.
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  // Loopback unless HOST says otherwise, MALLOC_ARENA_MAX=2, WEB_DEV with --dev: see start-env.mjs.
  env: startEnvironment(process.env, { dev }),
});
// Ctrl-C reaches the child through the terminal's process group; pass on a SIGTERM sent to this process.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => child.kill('SIGTERM'));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
