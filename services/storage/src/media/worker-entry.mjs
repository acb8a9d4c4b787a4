// The file piscina starts in each media worker thread. It is JavaScript because Node itself loads it,
// and Node 20 cannot read TypeScript. Whether a worker thread can import worker.ts depends on the
// runtime: tsx 4 on Node 20 installs its hooks in the main thread only (even under `node --import tsx`,
// as `pnpm start` and the production image run, and which workers inherit as a flag), and vitest
// compiles TypeScript inside its own module runner, out of reach of workers. Newer Node/tsx pairs do
// hook worker threads. So: try the plain import, and only if Node cannot read .ts, register tsx for
// this thread and import again.
let worker;
try {
  worker = await import('./worker.ts');
} catch (error) {
  if (error?.code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw error;
  const { register } = await import('tsx/esm/api');
  register();
  // A new URL: the failed import above is cached under the plain one.
  worker = await import('./worker.ts?tsx');
}

export default worker.default;
