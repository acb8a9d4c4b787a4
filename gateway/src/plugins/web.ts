import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES } from '../http-errors.js';

export interface WebOptions {
  /** The built SPA (web/dist). */
  distDir: string;
  /** Serve web/ through Vite with hot reload instead of the build (pnpm dev). */
  viteRoot?: string | undefined;
}

/** Names the spec gives the brand images: the icon under /api/uploads/, the header under /uploads/. */
const BRAND_ASSETS = { icon: 'snapcracks-icon.svg', header: 'snapcracks-header.svg' };

/**
 * Serves the single-page app with history fallback: any GET that is not an API call, a file or a known
 * route gets index.html, while unknown /api/* paths stay a JSON 404. Hashed assets are cached forever,
 * index.html never.
 */
export default fp<WebOptions>(async (app, options) => {
  let renderIndex: (request: FastifyRequest) => Promise<string>;

  if (options.viteRoot) {
    const { createServer } = await import('vite');
    const vite = await createServer({ root: options.viteRoot, appType: 'custom', server: { middlewareMode: true, hmr: { server: app.server } } });
    const { default: middie } = await import('@fastify/middie');
    await app.register(middie);
    app.use((req, res, next) => (req.url?.startsWith('/api/') ? next() : vite.middlewares(req, res, next)));
    app.addHook('onClose', () => vite.close());
    renderIndex = (request) => vite.transformIndexHtml(request.url, readFileSync(join(options.viteRoot!, 'index.html'), 'utf8'));
  } else {
    const indexPath = join(options.distDir, 'index.html');
    if (!existsSync(indexPath)) throw new Error(`The web app is not built (${indexPath} is missing): run pnpm build:web`);
    const indexHtml = readFileSync(indexPath, 'utf8');
    renderIndex = async () => indexHtml;
    await app.register(fastifyStatic, {
      root: options.distDir,
      index: false,
      wildcard: true,
      setHeaders(res, path) {
        res.setHeader('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
      },
    });
  }

  const brandFile = (name: string) => (options.viteRoot ? join(options.viteRoot, 'public/brand', name) : join(options.distDir, 'brand', name));
  const sendBrand = (name: string) => async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.header('cache-control', 'public, max-age=86400').type('image/svg+xml').send(readFileSync(brandFile(name)));
  app.get(`/api/uploads/${BRAND_ASSETS.icon}`, sendBrand(BRAND_ASSETS.icon));
  app.get(`/uploads/${BRAND_ASSETS.header}`, sendBrand(BRAND_ASSETS.header));

  const sendIndex = async (request: FastifyRequest, reply: FastifyReply) =>
    reply.code(200).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(await renderIndex(request));
  // The static plugin refuses directories; the root is the app like every other client-side route.
  app.get('/', sendIndex);
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (path.startsWith('/api/') || path === '/api' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.code(404).send({ message: MESSAGES.notFound });
    }
    return sendIndex(request, reply);
  });
});

/** CSP hashes of the inline scripts in the built index.html (the theme script that runs before first paint). */
export function inlineScriptHashes(distDir: string): string[] {
  const indexPath = join(distDir, 'index.html');
  if (!existsSync(indexPath)) return [];
  const html = readFileSync(indexPath, 'utf8');
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    (match) => `'sha256-${createHash('sha256').update(match[1] ?? '').digest('base64')}'`,
  );
}
