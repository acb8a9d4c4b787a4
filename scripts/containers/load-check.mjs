// The image build's last step (deploy/Dockerfile), run by the runtime image's own Node from the pruned tree:
//   node --experimental-vm-modules --experimental-import-meta-resolve load-check.mjs
// For every compiled module of the component (load-check.json, written by compile.ts) it loads every package the
// module imports, statically or on demand, and links the module against them without running it (node:vm), so a
// package missing from the tree, a missing named export or a native library that does not load fails the build
// rather than a pod. It also fails when the tree holds a package this image must not carry.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';

const tree = fileURLToPath(new URL('.', import.meta.url));
const manifest = JSON.parse(readFileSync(join(tree, 'load-check.json'), 'utf8'));
const problems = [];

for (const name of manifest.forbidden) {
  if (existsSync(join(tree, 'node_modules', name))) problems.push(`node_modules/${name} is in the image`);
}

const namespaces = new Map();
async function load(specifier, parentUrl) {
  const url = specifier.startsWith('node:') ? specifier : import.meta.resolve(specifier, parentUrl);
  if (!namespaces.has(url)) namespaces.set(url, await import(url));
  return namespaces.get(url);
}

for (const bundle of manifest.bundles) {
  const file = join(tree, bundle.file);
  const url = pathToFileURL(file).href;
  for (const specifier of [...bundle.imports, ...bundle.dynamicImports]) {
    try {
      await load(specifier, url);
    } catch (error) {
      problems.push(`${bundle.file}: ${specifier}: ${error.message}`);
    }
  }
  try {
    const module = new vm.SourceTextModule(readFileSync(file, 'utf8'), { identifier: url });
    await module.link(async (specifier) => {
      const namespace = await load(specifier, url);
      const names = Object.keys(namespace);
      return new vm.SyntheticModule(names, function () {
        for (const name of names) this.setExport(name, namespace[name]);
      });
    });
    // Linking resolves every named import; evaluating would start the component.
    if (module.status !== 'linked') problems.push(`${bundle.file}: not linked (${module.status})`);
  } catch (error) {
    problems.push(`${bundle.file}: ${error.message}`);
  }
}

const require = createRequire(join(tree, manifest.bundles[0].file));
for (const specifier of manifest.requires) {
  try {
    require(specifier);
  } catch (error) {
    problems.push(`require(${specifier}): ${error.message}`);
  }
}

if (problems.length) {
  process.stderr.write(`${manifest.component}: the image's modules do not load:\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(
  `${manifest.component}: ${manifest.bundles.length} module(s) linked against ${namespaces.size} loaded module(s)` +
    `${manifest.requires.length ? ` and ${manifest.requires.length} required` : ''}\n`,
);
// Some packages (piscina, tfjs) keep handles open once loaded; the check is done.
process.exit(0);
