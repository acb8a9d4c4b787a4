import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import web, { IMMUTABLE, negotiateEncoding } from './web.js';

const SCRIPT = `export const greeting = ${JSON.stringify('hello '.repeat(400))};\n`;
const SMALL_SCRIPT = 'export const x = 1;\n';
const INDEX = `<!doctype html><html><head><script type="module" src="/assets/app-3f2a1b.js"></script></head><body><div id="root"></div>${'<!-- padding -->'.repeat(100)}</body></html>`;
const ROBOTS = 'User-agent: *\nAllow: /\nDisallow: /api/\n';
const ICON = `<svg xmlns="http://www.w3.org/2000/svg">${'<rect width="1" height="1"/>'.repeat(100)}</svg>`;

let dist: string;
let app: FastifyInstance;

/** A built web app as web/vite.config.ts leaves it: hashed assets with .br and .gz beside the large ones. */
function writeDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'snapcracks-web-test-'));
  mkdirSync(join(dir, 'assets'));
  mkdirSync(join(dir, 'brand'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, 'robots.txt'), ROBOTS);
  writeFileSync(join(dir, 'assets/app-3f2a1b.js'), SCRIPT);
  writeFileSync(join(dir, 'assets/app-3f2a1b.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(join(dir, 'assets/app-3f2a1b.js.gz'), gzipSync(SCRIPT));
  writeFileSync(join(dir, 'assets/tiny-9c8d7e.js'), SMALL_SCRIPT);
  writeFileSync(join(dir, 'brand/snapcracks-icon.svg'), ICON);
  writeFileSync(join(dir, 'brand/snapcracks-header.svg'), ICON);
  return dir;
}

beforeAll(async () => {
  dist = writeDist();
  app = Fastify();
  await app.register(web, { distDir: dist });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  rmSync(dist, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

describe('hashed assets', () => {
  it('sends brotli when the browser accepts it, cached for good and varying by Accept-Encoding', async () => {
    const response = await get('/assets/app-3f2a1b.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(response.headers['cache-control']).toBe(IMMUTABLE);
    expect(response.headers.vary).toBe('Accept-Encoding');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(SCRIPT);
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
  });

  it('sends gzip to a browser without brotli, or one that refuses it', async () => {
    for (const acceptEncoding of ['gzip, deflate', 'br;q=0, gzip', 'gzip;q=1, br;q=0.5']) {
      const response = await get('/assets/app-3f2a1b.js', { 'accept-encoding': acceptEncoding });
      expect(response.headers['content-encoding'], acceptEncoding).toBe('gzip');
      expect(gunzipSync(response.rawPayload).toString()).toBe(SCRIPT);
      expect(response.headers['cache-control']).toBe(IMMUTABLE);
    }
  });

  it('sends the plain file to a client that accepts no compression', async () => {
    const response = await get('/assets/app-3f2a1b.js');
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe(SCRIPT);
    expect(response.headers.vary).toBe('Accept-Encoding');
    expect(response.headers['cache-control']).toBe(IMMUTABLE);
  });

  it('sends a file too small to compress as it is', async () => {
    const response = await get('/assets/tiny-9c8d7e.js', { 'accept-encoding': 'br, gzip' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe(SMALL_SCRIPT);
    expect(response.headers['cache-control']).toBe(IMMUTABLE);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const response = await app.inject({ method: 'HEAD', url: '/assets/app-3f2a1b.js', headers: { 'accept-encoding': 'br' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['cache-control']).toBe(IMMUTABLE);
    expect(response.rawPayload).toHaveLength(0);
  });

  it('answers a revalidation with 304 when the ETag still matches', async () => {
    const first = await get('/assets/app-3f2a1b.js', { 'accept-encoding': 'br' });
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await get('/assets/app-3f2a1b.js', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload).toHaveLength(0);
  });

  it('answers a missing asset with 404, not the app', async () => {
    const response = await get('/assets/missing-0a1b2c.js', { 'accept-encoding': 'br, gzip' });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('<div id="root">');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('never serves the compressed copies by their own names', async () => {
    expect((await get('/assets/app-3f2a1b.js.br')).statusCode).toBe(404);
    expect((await get('/assets/app-3f2a1b.js.gz')).statusCode).toBe(404);
  });
});

describe('the app page', () => {
  it.each(['/', '/legal', '/dashboard', '/admin/users', '/anything-else', '/u/jane.doe', '/index.html'])(
    'answers %s with index.html, revalidated on every visit',
    async (path) => {
      const response = await get(path);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toBe(INDEX);
    },
  );

  it('sends index.html compressed by Accept-Encoding, each encoding with its own ETag', async () => {
    const brotli = await get('/legal', { 'accept-encoding': 'gzip, deflate, br' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toBe('Accept-Encoding');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(INDEX);
    const gzip = await get('/legal', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(INDEX);
    const plain = await get('/legal');
    expect(new Set([brotli.headers.etag, gzip.headers.etag, plain.headers.etag]).size).toBe(3);
  });

  it('answers a revalidation of index.html with 304', async () => {
    const first = await get('/', { 'accept-encoding': 'br' });
    const again = await get('/dashboard', { 'accept-encoding': 'br', 'if-none-match': first.headers.etag as string });
    expect(again.statusCode).toBe(304);
    expect(again.headers['cache-control']).toBe('no-cache');
    expect(again.rawPayload).toHaveLength(0);
    // Another encoding is another representation: no 304 for it.
    expect((await get('/', { 'if-none-match': first.headers.etag as string })).statusCode).toBe(200);
  });

  it('answers HEAD like GET without a body', async () => {
    const response = await app.inject({ method: 'HEAD', url: '/legal', headers: { 'accept-encoding': 'br' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.rawPayload).toHaveLength(0);
  });
});

describe('other files', () => {
  it('serves robots.txt as text, with a short cache', async () => {
    const response = await get('/robots.txt', { 'accept-encoding': 'br, gzip' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    expect(response.body).toBe(ROBOTS);
  });

  it.each(['/favicon.ico', '/apple-touch-icon.png', '/sitemap.xml', '/brand/missing.svg'])('answers a missing file %s with 404', async (path) => {
    const response = await get(path);
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/json');
  });

  it('keeps unknown API paths and other methods a JSON 404', async () => {
    expect((await get('/api/no-such-thing')).json()).toEqual({ message: 'Not found' });
    expect((await app.inject({ method: 'POST', url: '/legal' })).statusCode).toBe(404);
  });

  it('serves the brand images under the paths the spec gives, compressed when accepted', async () => {
    for (const path of ['/api/uploads/snapcracks-icon.svg', '/uploads/snapcracks-header.svg']) {
      const response = await get(path, { 'accept-encoding': 'br' });
      expect(response.statusCode, path).toBe(200);
      expect(response.headers['content-type']).toBe('image/svg+xml');
      expect(response.headers['content-encoding']).toBe('br');
      expect(response.headers['cache-control']).toBe('public, max-age=86400');
      expect(brotliDecompressSync(response.rawPayload).toString()).toBe(ICON);
    }
  });
});

describe('negotiateEncoding', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    ['gzip, deflate, br', 'br'],
    ['GZIP', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=1.0, br;q=0.8', 'gzip'],
    ['*', 'br'],
    ['*;q=0', undefined],
    ['gzip;q=0, br;q=0', undefined],
    ['deflate', undefined],
  ])('%s → %s', (header, expected) => {
    expect(negotiateEncoding(header, ['br', 'gzip'])).toBe(expected);
  });

  it('offers only what exists', () => {
    expect(negotiateEncoding('br, gzip', ['gzip'])).toBe('gzip');
    expect(negotiateEncoding('br, gzip', [])).toBeUndefined();
  });
});
