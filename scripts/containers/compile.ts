/**
 * Builds each image's application tree (deploy/Dockerfile runs it in its build stage):
 *   tsx scripts/containers/compile.ts --out /out [--store-dir DIR] [component …]
 * For each component, /out/<component>/ holds
 * - its entries compiled by esbuild into one ES module each, at the source's path with `.mjs`: the workspace's
 *   TypeScript (the kit, the generated gRPC and Prisma code) inside, every npm package left as an import;
 * - node_modules from `pnpm deploy --prod` of its package (the lockfile's versions, hoisted into one flat tree),
 *   then pruned to the packages those imports reach, and within Prisma's runtime to the PostgreSQL query compiler;
 * - the files it reads at run time (the SPA, migrations), and load-check.mjs with its list of what to load.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as esbuild from 'esbuild';
import { IMAGE_COMPONENTS, IMAGE_COMPONENT_NAMES, compiledPath, forbiddenPackages, type ImageComponent, type ImageComponentName } from './components.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface BundleImports {
  /** The module, relative to the component's tree. */
  file: string;
  imports: string[];
  dynamicImports: string[];
  /** Dynamic imports of packages the image must not carry: development-only paths, never taken in a container. */
  developmentOnly?: string[];
}

export interface LoadCheckManifest {
  component: string;
  bundles: BundleImports[];
  requires: string[];
  forbidden: string[];
}

/** The npm package a specifier names: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
export function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

const isBuiltin = (specifier: string) => specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!);

/**
 * Rewrites one workspace source for the bundle. `import.meta.url` becomes the URL the source file would have in
 * the image (relative to the bundle's own URL), so paths computed from it (migrations, the SPA, worker entry
 * files, createRequire) resolve as they do from the sources. The media entry files' importTypeScript(…) (which
 * exists for tsx) becomes a plain import() that esbuild compiles into the bundle.
 */
export function rewriteSource(source: string, sourcePath: string, bundleDir: string): string {
  if (/import\.meta\.(dirname|filename|resolve)\b/.test(source)) {
    throw new Error(`${sourcePath}: import.meta.dirname/filename/resolve are not rewritten for the images; use import.meta.url`);
  }
  let text = source;
  if (text.includes('importTypeScript(')) {
    text = text
      .replace(/^import \{ importTypeScript \} from '\.\/import-typescript\.mjs';\n/m, '')
      .replace(/importTypeScript\(new URL\(('\.\/[^']+\.ts'), import\.meta\.url\)\.href\)/g, 'import($1)');
  }
  let fromBundle = relative(bundleDir, sourcePath).split(sep).join('/');
  if (!fromBundle.startsWith('.')) fromBundle = `./${fromBundle}`;
  return text.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`);
}

/**
 * The specifier Node's ES module loader accepts for `specifier` imported from `importer`. A subpath of a package
 * without an "exports" map (libheif-js/wasm-bundle) needs its file's extension there, which tsx added when it ran
 * the sources; packages with "exports" keep their specifier.
 */
function nodeSpecifier(specifier: string, importer: string): string {
  const name = packageName(specifier);
  if (specifier === name) return specifier;
  let manifestPath = '';
  for (let dir = dirname(importer); !manifestPath; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', name, 'package.json'))) manifestPath = join(dir, 'node_modules', name, 'package.json');
    else if (dir === dirname(dir)) throw new Error(`${specifier}: package ${name} not found from ${importer}`);
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { exports?: unknown };
  if (manifest.exports !== undefined) return specifier;
  return `${name}/${relative(realpathSync(dirname(manifestPath)), createRequire(importer).resolve(specifier)).split(sep).join('/')}`;
}

/** esbuild: workspace packages compiled in, npm packages and Node's built-ins left as imports. */
function workspacePlugin(bundleDir: string): esbuild.Plugin {
  return {
    name: 'snapcracks-workspace',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('@snapcracks/')) return undefined;
        if (isBuiltin(args.path)) return { path: args.path, external: true, sideEffects: false };
        return { path: nodeSpecifier(args.path, args.importer), external: true };
      });
      build.onLoad({ filter: /\.(ts|mts|mjs|js)$/ }, (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
        const source = readFileSync(args.path, 'utf8');
        return { contents: rewriteSource(source, args.path, bundleDir), loader: /\.m?ts$/.test(args.path) ? 'ts' : 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}

async function bundle(entry: string, tree: string): Promise<BundleImports> {
  const file = compiledPath(entry);
  const outfile = join(tree, file);
  // Source paths in the image mirror the repository's, so the rewrite is computed against the repository.
  const bundleDir = dirname(join(root, file));
  const result = await esbuild.build({
    entryPoints: [join(root, entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    metafile: true,
    logLevel: 'warning',
    plugins: [workspacePlugin(bundleDir)],
  });
  const imports = new Set<string>();
  const dynamicImports = new Set<string>();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const imported of output.imports) {
      if (!imported.external || isBuiltin(imported.path)) continue;
      (imported.kind === 'dynamic-import' ? dynamicImports : imports).add(imported.path);
    }
  }
  return { file, imports: [...imports].sort(), dynamicImports: [...dynamicImports].filter((p) => !imports.has(p)).sort() };
}

/** Where Node finds package `name` for code in `fromDir`: the nearest node_modules/<name> up the tree. */
function findPackage(name: string, fromDir: string, tree: string): string | undefined {
  for (let dir = fromDir; dir.startsWith(tree); dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === tree) break;
  }
  return undefined;
}

/** Every package directory the given packages need, following dependencies, optional and peer ones present. */
export function packageClosure(tree: string, names: string[]): Set<string> {
  const kept = new Set<string>();
  const visit = (name: string, fromDir: string, required: boolean) => {
    const dir = findPackage(name, fromDir, tree);
    if (!dir) {
      if (required) throw new Error(`${name}: imported but not in the deployed tree ${tree}`);
      return;
    }
    if (kept.has(dir)) return;
    kept.add(dir);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    for (const dep of Object.keys(manifest.dependencies ?? {})) visit(dep, dir, true);
    for (const dep of [...Object.keys(manifest.optionalDependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]) visit(dep, dir, false);
  };
  for (const name of names) visit(name, tree, true);
  return kept;
}

/** The package directories of a node_modules tree, nested ones included. */
function packageDirs(nodeModules: string): string[] {
  if (!existsSync(nodeModules)) return [];
  const dirs: string[] = [];
  for (const entry of readdirSync(nodeModules)) {
    if (entry.startsWith('.')) continue;
    const path = join(nodeModules, entry);
    const scoped = entry.startsWith('@') ? readdirSync(path).map((name) => join(path, name)) : [path];
    for (const dir of scoped) {
      dirs.push(dir);
      dirs.push(...packageDirs(join(dir, 'node_modules')));
    }
  }
  return dirs;
}

function removeFiles(dir: string, matches: (name: string) => boolean): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) removeFiles(path, matches);
    else if (matches(entry.name)) rmSync(path);
  }
}

/** Keeps what the bundles reach; drops type declarations, source maps, and Prisma's runtimes for other databases. */
function prune(tree: string, needed: string[]): void {
  const nodeModules = join(tree, 'node_modules');
  for (const name of ['.bin', '.pnpm', '.modules.yaml', '@snapcracks']) rmSync(join(nodeModules, name), { recursive: true, force: true });
  const kept = packageClosure(tree, needed);
  for (const dir of packageDirs(nodeModules)) if (!kept.has(dir) && existsSync(dir)) rmSync(dir, { recursive: true });
  for (const entry of readdirSync(nodeModules)) {
    const path = join(nodeModules, entry);
    if (entry.startsWith('@') && readdirSync(path).length === 0) rmSync(path, { recursive: true });
  }
  removeFiles(nodeModules, (name) => /\.(map|d\.ts|d\.mts|d\.cts)$/.test(name));
  const prismaClient = join(nodeModules, '@prisma', 'client');
  if (existsSync(prismaClient)) {
    // The generated clients use engineType "client": the runtime plus PostgreSQL's WebAssembly query compiler.
    for (const name of readdirSync(join(prismaClient, 'runtime'))) {
      if (!/^(client\.(js|mjs)|query_compiler_bg\.postgresql\.(js|mjs|wasm-base64\.js|wasm-base64\.mjs))$/.test(name)) rmSync(join(prismaClient, 'runtime', name), { recursive: true });
    }
    rmSync(join(prismaClient, 'generator-build'), { recursive: true, force: true });
  }
}

function deploy(component: ImageComponent, target: string, storeDir: string | undefined): void {
  const args = ['--filter', component.package, 'deploy', '--prod', '--ignore-scripts', '--config.node-linker=hoisted'];
  if (storeDir) args.push('--store-dir', storeDir);
  const result = spawnSync('pnpm', [...args, target], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error(`pnpm deploy ${component.package} failed (${result.status ?? result.signal})`);
}

const sizeOf = (path: string): number =>
  statSync(path).isDirectory() ? readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0) : statSync(path).size;

export async function compileComponent(name: ImageComponentName, out: string, options: { storeDir?: string; webDist?: string } = {}): Promise<void> {
  const { storeDir, webDist } = options;
  const component: ImageComponent = IMAGE_COMPONENTS[name];
  const tree = join(out, name);
  const staging = join(out, `.deploy-${name}`);
  rmSync(tree, { recursive: true, force: true });
  rmSync(staging, { recursive: true, force: true });
  deploy(component, staging, storeDir);
  mkdirSync(tree, { recursive: true });
  renameSync(join(staging, 'node_modules'), join(tree, 'node_modules'));
  rmSync(staging, { recursive: true });

  const bundles: BundleImports[] = [];
  for (const entry of component.entries) bundles.push(await bundle(entry, tree));
  const forbidden = forbiddenPackages(name);
  const staticPackages = [...new Set(bundles.flatMap((b) => b.imports).map(packageName))];
  const bad = staticPackages.filter((p) => forbidden.includes(p));
  if (bad.length) throw new Error(`${name}: its code imports ${bad.join(', ')}, which its image must not carry`);
  // A dynamic import of a forbidden package is a development-only path (the gateway's Vite middleware): left out.
  for (const b of bundles) {
    const developmentOnly = b.dynamicImports.filter((p) => forbidden.includes(packageName(p)));
    if (developmentOnly.length) Object.assign(b, { dynamicImports: b.dynamicImports.filter((p) => !developmentOnly.includes(p)), developmentOnly });
  }
  const dynamicPackages = bundles.flatMap((b) => b.dynamicImports).map(packageName);
  prune(tree, [...new Set([...staticPackages, ...dynamicPackages, ...(component.requires ?? []).map(packageName)])]);

  for (const file of component.files ?? []) cpSync(file === 'web/dist' && webDist ? webDist : join(root, file), join(tree, file), { recursive: true });
  const manifest: LoadCheckManifest = { component: name, bundles, requires: component.requires ?? [], forbidden };
  writeFileSync(join(tree, 'load-check.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  cpSync(join(root, 'scripts/containers/load-check.mjs'), join(tree, 'load-check.mjs'));
  process.stdout.write(`${name}: ${(sizeOf(tree) / 1e6).toFixed(1)} MB (${bundles.map((b) => b.file).join(', ')})\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { out: { type: 'string' }, 'store-dir': { type: 'string' }, 'web-dist': { type: 'string' } } });
  if (!values.out) throw new Error('usage: compile.ts --out DIR [--store-dir DIR] [--web-dist DIR] [component …]');
  const names = positionals.length ? positionals : IMAGE_COMPONENT_NAMES;
  for (const name of names) {
    if (!(name in IMAGE_COMPONENTS)) throw new Error(`unknown component ${name}; one of ${IMAGE_COMPONENT_NAMES.join(', ')}`);
    await compileComponent(name as ImageComponentName, resolve(values.out), { storeDir: values['store-dir'], webDist: values['web-dist'] });
  }
}
