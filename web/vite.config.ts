import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { defineConfig, type Plugin, type Rollup } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

/** Text formats worth compressing; images other than SVG and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|wasm|txt|xml|map)$/;
/** React, its DOM renderer and JSX runtime, and the router: what every page runs first. */
const VENDOR_REACT = /[\\/]node_modules[\\/](?:react|react-dom|scheduler|react-router|react-router-dom|cookie|set-cookie-parser)[\\/]/;
/**
 * Every icon in one file. Shared by several lazy pages, each icon otherwise became a file of its own of a few
 * hundred bytes: the signed-in home fetched 17 files after the entry, and over HTTP/1.1 (six connections per
 * host) every extra round of requests costs a phone a round trip before the first paint.
 */
const ICONS = /[\\/]node_modules[\\/]lucide-react[\\/]/;
/**
 * Radix primitives and the small packages they build on, in one file. Left to the route splitting, they came as a dozen
 * files of a few hundred bytes to a few kilobytes each, fetched after the entry by every framed page; over HTTP/1.1
 * (six connections a host) each further round costs a phone a round trip. The ones the entry imports (the button's
 * Slot, the avatar: each from its own package, as the `radix-ui` barrel would bring every primitive) go with React
 * instead, so the landing page still loads no dialog or menu code.
 */
const RADIX = /[\\/]node_modules[\\/](?:@radix-ui|radix-ui|@floating-ui|aria-hidden|react-remove-scroll(?:-bar)?|react-style-singleton|use-callback-ref|use-sidecar|get-nonce|detect-node-es|tslib)[\\/]/;
const VENDOR_QUERY = /[\\/]node_modules[\\/]@tanstack[\\/](?:react-query|query-core)[\\/]/;
/** Below this, the compressed file saves less than a packet and costs a lookup. */
const MIN_COMPRESS_BYTES = 1024;

/**
 * Writes a brotli (.br, quality 11) and a gzip (.gz, level 9) copy beside every compressible file of the
 * build, once, so the gateway sends the smallest variant the browser accepts without compressing on each
 * request. A copy that does not come out smaller than 90 % of the original is skipped.
 */
function precompress(): Plugin {
  let outDir = '';
  const brotli = promisify(brotliCompress);
  const gzipAsync = promisify(gzip);
  return {
    name: 'snapcracks:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true })).map((name) => join(outDir, name)).filter((path) => COMPRESSIBLE.test(path));
      await Promise.all(
        files.map(async (path) => {
          if ((await stat(path)).size < MIN_COMPRESS_BYTES) return;
          const source = await readFile(path);
          const variants: [string, Buffer][] = [
            [
              '.br',
              await brotli(source, {
                params: {
                  [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                  [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
                  [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
                },
              }),
            ],
            ['.gz', await gzipAsync(source, { level: constants.Z_BEST_COMPRESSION })],
          ];
          for (const [extension, compressed] of variants) {
            if (compressed.length < source.length * 0.9) await writeFile(path + extension, compressed);
          }
        }),
      );
    },
  };
}

/** The chunks of a build's output. */
function chunksOf(bundle: Rollup.OutputBundle): Rollup.OutputChunk[] {
  return Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [output] : []));
}

/** The chunks `starts` import statically, directly or not, with themselves: what loads with them. */
function staticallyImported(starts: Rollup.OutputChunk[], chunks: Rollup.OutputChunk[]): Rollup.OutputChunk[] {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const seen = new Map<string, Rollup.OutputChunk>();
  const pending = [...starts];
  for (let chunk = pending.pop(); chunk; chunk = pending.pop()) {
    if (seen.has(chunk.fileName)) continue;
    seen.set(chunk.fileName, chunk);
    for (const file of chunk.imports) {
      const next = byFile.get(file);
      if (next) pending.push(next);
    }
  }
  return [...seen.values()];
}

/**
 * Packages the first screen never runs, whatever the page: zod validates forms, whose pages load it with their own
 * code. It reached the entry once through a contract module that mixed a schema with plain functions, adding 25 KiB
 * (brotli) to every first visit; the build now fails instead. Likewise the Radix primitives of dialogs, menus and
 * selects, which one `radix-ui` import in a component of the landing would bring whole (the RADIX chunk).
 */
const OFF_THE_FIRST_SCREEN = [
  /[\\/]node_modules[\\/]zod[\\/]/,
  /[\\/]node_modules[\\/](?:radix-ui|@radix-ui[\\/]react-(?:dialog|dropdown-menu|menu|select|toast|popper))[\\/]/,
];

/** Fails the build when a package of OFF_THE_FIRST_SCREEN is in the entry or a chunk it imports statically. */
function firstScreenGuard(): Plugin {
  return {
    name: 'snapcracks:first-screen-guard',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = chunksOf(bundle);
      for (const chunk of staticallyImported(chunks.filter((c) => c.isEntry), chunks)) {
        const offending = Object.keys(chunk.modules).find((id) => OFF_THE_FIRST_SCREEN.some((pattern) => pattern.test(id)));
        if (offending) this.error(`${offending} is in ${chunk.fileName}, which every first visit loads: import it only from lazily loaded code`);
      }
    },
  };
}

/** Packages whose code the build ships under a licence that asks for its notice and terms to travel with it. */
const NOTICED_PACKAGES = ['libheif-js'];
const THIRD_PARTY_NOTICES = 'third-party-notices.txt';

/**
 * Writes `third-party-notices.txt` into the build: for each package in NOTICED_PACKAGES its name, version, licence,
 * source repository and licence text, read from the installed package so they always match what was bundled. The
 * HEIC decoder (libheif with libde265, LGPL-3.0) runs in the browser, so its terms and sources are offered there
 * (linked from /legal).
 */
function thirdPartyNotices(): Plugin {
  return {
    name: 'snapcracks:third-party-notices',
    apply: 'build',
    async generateBundle() {
      const require = createRequire(import.meta.url);
      const sections = await Promise.all(
        NOTICED_PACKAGES.map(async (name) => {
          const root = dirname(require.resolve(`${name}/package.json`));
          const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string; license: string; repository?: { url?: string } };
          const text = await readFile(join(root, 'LICENSE'), 'utf8');
          const source = (pkg.repository?.url ?? '').replace(/^git\+/, '').replace(/\.git$/, '');
          return `${name} ${pkg.version}\nLicence: ${pkg.license}\nSource: ${source}\n\n${text.trim()}\n`;
        }),
      );
      this.emitFile({
        type: 'asset',
        fileName: THIRD_PARTY_NOTICES,
        source: `Snap Cracks ships the following third-party software in its web app.\n\n${sections.join('\n' + '-'.repeat(78) + '\n\n')}`,
      });
    },
  };
}

/** The frame of every page but the landing and the terms screen (routes/lazy-pages.tsx AppLayout, with its toasts). */
const FRAME_MODULES = ['src/components/layout/app-layout.tsx', 'src/components/ui/toaster.tsx'];
/** Routes whose first screen the landing's code draws, or a screen of its own: no frame or page to fetch ahead. */
const NOT_FRAMED = new Set(['/', '*', '/terms-acceptance']);
/** Where index.html wants the script, before its stylesheet (a script after a stylesheet waits for it). */
const ROUTE_MODULE_PRELOADS = '<!-- route module preloads -->';

/**
 * The page module of a framed route, by the pages' naming: `/admin/users` is `src/pages/admin-users.tsx`. The build
 * fails when a route of routes/app-routes.tsx has no such page, so the naming and this stay in step.
 */
const pageModuleOf = (path: string) => `src/pages/${path.slice(1).replaceAll('/', '-')}.tsx`;

/**
 * Adds to index.html, for each framed route, the code its first screen waits for: the frame's and the page's chunks
 * and the chunks they import, less what the entry brings. main.tsx renders the first screen once that code is here,
 * and without these hints a phone asks for it only after the entry has downloaded and run, a second round of requests
 * after the first. A small inline script adds `modulepreload` links for the path being opened, so they download with
 * the entry. `/` is left out: its first screen is the landing for visitors, in the entry already.
 */
function routeModulePreloads(): Plugin {
  let root = '';
  return {
    name: 'snapcracks:route-module-preloads',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    async transformIndexHtml(html, { bundle }) {
      if (!bundle) return html;
      const chunks = chunksOf(bundle);
      const byModule = new Map(chunks.flatMap((chunk) => (chunk.facadeModuleId ? [[chunk.facadeModuleId, chunk] as const] : [])));
      const closure = (starts: Rollup.OutputChunk[]) => new Set(staticallyImported(starts, chunks).map((chunk) => chunk.fileName));
      const chunkOf = (module: string) => {
        const chunk = byModule.get(resolve(root, module));
        if (!chunk) throw new Error(`route module preloads: no chunk starts at ${module}`);
        return chunk;
      };
      const withEntry = closure(chunks.filter((chunk) => chunk.isEntry));
      const frame = closure(FRAME_MODULES.map(chunkOf));
      const routes = await readFile(resolve(root, 'src/routes/app-routes.tsx'), 'utf8');
      const paths = [...new Set([...routes.matchAll(/<Route path="([^"]+)"/g)].map(([, path]) => path!))].filter((path) => !NOT_FRAMED.has(path));
      const url = (file: string) => `/${file}`;
      const pages = Object.fromEntries(paths.map((path) => [path, [...closure([chunkOf(pageModuleOf(path))])].filter((file) => !withEntry.has(file) && !frame.has(file)).map(url)]));
      const framed = [...frame].filter((file) => !withEntry.has(file)).map(url);
      const script = `<script>(function(){var l=${JSON.stringify(pages)}[location.pathname];if(l)${JSON.stringify(framed)}.concat(l).forEach(function(h){var e=document.createElement('link');e.rel='modulepreload';e.href=h;document.head.appendChild(e);});})();</script>`;
      if (!html.includes(ROUTE_MODULE_PRELOADS)) throw new Error(`route module preloads: index.html has no ${ROUTE_MODULE_PRELOADS}`);
      return html.replace(ROUTE_MODULE_PRELOADS, script);
    },
  };
}

/** Every module the entries import statically, directly or not: what loads with any first screen. */
function staticClosureOfEntries(ids: Iterable<string>, info: (id: string) => Rollup.ModuleInfo | null): Set<string> {
  const pending = [...ids].filter((id) => info(id)?.isEntry);
  const seen = new Set<string>();
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    pending.push(...(info(id)?.importedIds ?? []));
  }
  return seen;
}
/** Computed on the first call of manualChunks, when the module graph is complete; `vite build` builds once a process. */
let entryClosure: Set<string> | undefined;

// In development the gateway runs Vite in middleware mode and serves /api and /uploads itself,
// so no dev-server proxy is configured here.
export default defineConfig({
  base: '/',
  plugins: [react(), tailwindcss(), firstScreenGuard(), routeModulePreloads(), thirdPartyNotices(), precompress()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  // The HEIC decoder's glue (CommonJS) is imported only by a worker, which the dev server's first scan does not
  // follow: found on the first HEIC photo, it would be bundled then and the page reloaded, losing the chosen file.
  optimizeDeps: { include: ['libheif-js/libheif-wasm/libheif.js'] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rollupOptions: {
      output: {
        // The libraries every page runs change less often than the app: their own files stay cached
        // across releases. Radix has a file of its own (RADIX); everything else goes with the route that uses it,
        // so the landing page loads no dialog, menu or form code.
        manualChunks(id, { getModuleIds, getModuleInfo }) {
          if (VENDOR_REACT.test(id)) return 'react';
          if (VENDOR_QUERY.test(id)) return 'query';
          if (ICONS.test(id)) return 'icons';
          if (RADIX.test(id)) {
            entryClosure ??= staticClosureOfEntries(getModuleIds(), getModuleInfo);
            return entryClosure.has(id) ? 'react' : 'radix';
          }
          return undefined;
        },

      },
    },
  },
});
