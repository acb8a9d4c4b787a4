/**
 * The environment `pnpm start` / `pnpm dev` run the product with: what the user set, plus
 * - HOST=127.0.0.1 unless HOST is set or NODE_ENV is production: a development gateway (signed in with the development
 *   identity provider, its generated session secret, Vite's dev server behind it in `pnpm dev`) is for this machine
 *   only; HOST=0.0.0.0 opens it to the network on purpose. Images and the chart run the gateway with their own
 *   entry point (gateway/src/main.mjs), whose default stays every interface, as a container needs.
 * - MALLOC_ARENA_MAX=2: without it glibc gives each of the many threads that libvips (sharp) and the media worker pool
 *   run on an allocation arena of its own, and the memory freed after a photo stays scattered over them; measured with
 *   `pnpm bench:upload`, about 100 MB less growth under 4 uploads at once. A value the user set is kept.
 * - WEB_DEV=true with --dev: the gateway serves web/ through Vite with hot reload.
 */
export function startEnvironment(env, { dev }) {
  const host = env.HOST || (env.NODE_ENV === 'production' ? undefined : '127.0.0.1');
  return { MALLOC_ARENA_MAX: '2', ...env, ...(host ? { HOST: host } : {}), ...(dev ? { WEB_DEV: 'true' } : {}) };
}
