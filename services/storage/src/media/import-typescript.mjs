// How the media entry files (worker-entry.mjs for worker threads, media-process-entry.mjs for the media process)
// load their TypeScript. They are JavaScript because Node itself loads them, and Node 20 cannot read TypeScript.
// Whether a new thread or process can import a .ts file depends on the runtime: tsx 4 on Node 20 installs its hooks
// in the main thread only (even under `node --import tsx`, as `pnpm start` and the production image run, and which
// workers inherit as a flag), and vitest compiles TypeScript inside its own module runner, out of reach of workers
// and child processes. Newer Node/tsx pairs do hook worker threads. Node 22.18+ and 24 read .ts themselves (type
// stripping) but do not map the `.js` specifiers of our imports to their `.ts` files. So: try the plain import, and
// only if Node cannot read .ts or resolve those specifiers, register tsx here and import again.

/** Imports the TypeScript module at `url` (absolute), registering tsx first when this runtime needs it. */
export async function importTypeScript(url) {
  try {
    return await import(url);
  } catch (error) {
    // Module-not-found fails while linking, before any module of the graph ran: importing again is safe.
    if (error?.code !== 'ERR_UNKNOWN_FILE_EXTENSION' && error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    const { register } = await import('tsx/esm/api');
    register();
    // A new URL: the failed import above is cached under the plain one.
    return import(`${url}?tsx`);
  }
}
