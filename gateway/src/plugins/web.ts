import { ERRORS } from '@snapcracks/http-contract';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface WebOptions {
  /** The built SPA (web/dist). */
  distDir: string;
  /** Serve web/ through Vite with hot reload instead of the build (pnpm dev). */
  viteRoot?: string | undefined;
}

/** Names the spec gives the brand images: the icon under /api/uploads/, the header under /uploads/. */
const BRAND_ASSETS = { icon: 'snapcracks-icon.svg', header: 'snapcracks-header.svg' };

/** Files under /assets/ carry a hash of their content in their name: a new build gives them new names. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Other files of the build (robots.txt, the favicon) keep their names across releases. */
const SHORT_LIVED = 'public, max-age=300';
const BRAND_CACHE = 'public, max-age=86400';

/** Formats the build precompresses (web/vite.config.ts), so their responses vary by Accept-Encoding. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|wasm|txt|xml|map)$/;
/**
 * Paths that name a file rather than a page: when no such file exists they get a 404, not the app, so a
 * stale script URL fails as a script and crawlers see a missing favicon as missing.
 */
const FILE_PATH = /\.(?:m?js|css|map|json|txt|xml|webmanifest|ico|png|jpe?g|gif|webp|avif|svg|woff2?|ttf|otf|wasm|html?)$/i;

type Encoding = 'br' | 'gzip';
const ENCODINGS: readonly Encoding[] = ['br', 'gzip'];

interface Variant {
  body: Buffer;
  etag: string;
}

/** A small file served from memory in every encoding worth having, each with its own strong ETag. */
interface Representations {
  type: string;
  identity: Variant;
  encoded: Partial<Record<Encoding, Variant>>;
}

/**
 * Serves the single-page app with history fallback: any GET that is not an API call, a file or a known
 * route gets index.html, while unknown /api/* paths stay a JSON 404 and unknown file paths a 404.
 *
 * In production the build's files come precompressed (brotli and gzip beside each file, made by the
 * build) in the best encoding the browser accepts, with `Vary: Accept-Encoding`; hashed files under
 * /assets/ are cached for good, index.html is revalidated on every visit (its ETag makes that a 304).
 */
export default fp<WebOptions>(async (app, options) => {
  let sendIndex: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;
  let brandFile: (name: string) => (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

  if (options.viteRoot) {
    const viteRoot = options.viteRoot;
    const { createServer } = await import('vite');
    const vite = await createServer({ root: viteRoot, appType: 'custom', server: { middlewareMode: true, hmr: { server: app.server } } });
    const { default: middie } = await import('@fastify/middie');
    await app.register(middie);
    app.use((req, res, next) => (req.url?.startsWith('/api/') ? next() : vite.middlewares(req, res, next)));
    app.addHook('onClose', () => vite.close());
    sendIndex = async (request, reply) => {
      const html = await vite.transformIndexHtml(request.url, readFileSync(join(viteRoot, 'index.html'), 'utf8'));
      return reply.code(200).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
    };
    // Read on every request, so an edited image shows on reload.
    brandFile = (name) => async (_request, reply) =>
      reply.header('cache-control', 'no-cache').type('image/svg+xml').send(readFileSync(join(viteRoot, 'public/brand', name)));
  } else {
    const distDir = options.distDir;
    const indexPath = join(distDir, 'index.html');
    if (!existsSync(indexPath)) throw new Error(`The web app is not built (${indexPath} is missing): run pnpm build:web`);
    const index = representations(readFileSync(indexPath), 'text/html; charset=utf-8');
    sendIndex = async (request, reply) => sendRepresentation(request, reply, index, 'no-cache');
    const brand = Object.fromEntries(
      Object.values(BRAND_ASSETS).map((name) => [name, representations(readFileSync(join(distDir, 'brand', name)), 'image/svg+xml')]),
    );
    brandFile = (name) => async (request, reply) => sendRepresentation(request, reply, brand[name]!, BRAND_CACHE);

    const assetsDir = join(distDir, 'assets') + sep;
    await app.register(fastifyStatic, {
      root: distDir,
      index: false,
      wildcard: true,
      // foo.js.br and foo.js.gz are sent for foo.js when the browser accepts them, never asked for by name.
      preCompressed: true,
      allowedPath: (pathname) => !/\.(?:br|gz)$/.test(pathname),
      // Our own Cache-Control below; the plugin's would overwrite it.
      cacheControl: false,
      setHeaders(res, path) {
        const original = path.replace(/\.(?:br|gz)$/, '');
        res.setHeader('cache-control', original.startsWith(assetsDir) ? IMMUTABLE : SHORT_LIVED);
        if (COMPRESSIBLE.test(original)) res.setHeader('vary', 'Accept-Encoding');
      },
    });
    // The plugin would serve it as a plain file with the short cache; it is the app's page.
    app.get('/index.html', sendIndex);
  }

  app.get(`/api/uploads/${BRAND_ASSETS.icon}`, brandFile(BRAND_ASSETS.icon));
  app.get(`/uploads/${BRAND_ASSETS.header}`, brandFile(BRAND_ASSETS.header));

  // The static plugin refuses directories; the root is the app like every other client-side route.
  app.get('/', (request, reply) => sendIndex(request, reply));
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const isApi = path.startsWith('/api/') || path === '/api';
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !isApi && !path.startsWith('/assets/') && !FILE_PATH.test(path);
    if (!isPage) return reply.code(404).header('cache-control', 'no-store').send({ message: ERRORS.notFound });
    return sendIndex(request, reply);
  });
});

/** Reads the encodings the request accepts (RFC 9110 §12.5.3) and picks the first of `available` with q > 0. */
export function negotiateEncoding(acceptEncoding: string | undefined, available: readonly Encoding[]): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [coding = '', ...params] = part.split(';').map((token) => token.trim());
    if (!coding) continue;
    const q = params.find((param) => param.startsWith('q='));
    weights.set(coding, q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  const weightOf = (coding: string) => weights.get(coding) ?? weights.get('*') ?? 0;
  const accepted = available.filter((coding) => weightOf(coding) > 0);
  // The most preferred by the browser; on a tie, the smaller encoding (brotli first).
  return accepted.sort((a, b) => weightOf(b) - weightOf(a))[0];
}

/** Compresses `body` once, at start-up, keeping an encoding only when it saves at least a tenth. */
function representations(body: Buffer, type: string): Representations {
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 22);
  const encoded: Representations['encoded'] = {};
  const compressed: Record<Encoding, () => Buffer> = {
    br: () =>
      brotliCompressSync(body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
      }),
    gzip: () => gzipSync(body, { level: constants.Z_BEST_COMPRESSION }),
  };
  for (const encoding of ENCODINGS) {
    const smaller = compressed[encoding]();
    if (smaller.length < body.length * 0.9) encoded[encoding] = { body: smaller, etag: `"${hash}-${encoding}"` };
  }
  return { type, identity: { body, etag: `"${hash}"` }, encoded };
}

function sendRepresentation(request: FastifyRequest, reply: FastifyReply, file: Representations, cacheControl: string): FastifyReply {
  const available = ENCODINGS.filter((encoding) => file.encoded[encoding]);
  const encoding = negotiateEncoding(request.headers['accept-encoding'], available);
  const variant = (encoding && file.encoded[encoding]) || file.identity;
  reply.header('cache-control', cacheControl).header('etag', variant.etag);
  if (available.length) reply.header('vary', 'Accept-Encoding');
  if (matchesEtag(request.headers['if-none-match'], variant.etag)) return reply.code(304).send();
  if (encoding) reply.header('content-encoding', encoding);
  return reply.code(200).type(file.type).send(variant.body);
}

/** If-None-Match uses the weak comparison: W/"x" matches "x". */
function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}

/** CSP hashes of the inline scripts in the built index.html (the theme script that runs before first paint). */
export function inlineScriptHashes(distDir: string): string[] {
  const indexPath = join(distDir, 'index.html');
  if (!existsSync(indexPath)) return [];
  const html = readFileSync(indexPath, 'utf8');
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    (match) => `'sha256-${createHash('sha256').update(match[1] ?? '').digest('base64')}'`,
  );
}
