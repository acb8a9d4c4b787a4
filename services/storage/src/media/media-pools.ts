import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { MediaResult, MediaTask } from './protocol.js';

/** Which pool a task runs on: shared image threads, the HEIC thread, or the face-detection thread. */
export type MediaPoolName = 'images' | 'heic' | 'faces';

export interface MediaPools {
  /** Runs `task` on a thread of `pool`; rejects when the pool is busy, a thread crashed, or `timeoutMs` passed. */
  run<K extends MediaTask['kind']>(pool: MediaPoolName, task: MediaTask & { kind: K }, timeoutMs?: number): Promise<MediaResult<K>>;
  close(): Promise<void>;
}

const WORKER = fileURLToPath(new URL('./worker-entry.mjs', import.meta.url));

/**
 * Worker threads and the media process inherit this process's Node flags (memory limits, source maps,
 * loaders). Flags about the main script of `node -e '…'` (as the image build's import check runs) would make
 * them refuse to start, so those are left out.
 */
export function inheritableExecArgv(): string[] {
  const args: string[] = [];
  for (let i = 0; i < process.execArgv.length; i++) {
    const arg = process.execArgv[i]!;
    if (['-e', '--eval', '-p', '--print', '--input-type'].includes(arg)) i++;
    else if (!arg.startsWith('--input-type=') && !arg.startsWith('--eval=') && !arg.startsWith('--print=')) args.push(arg);
  }
  return args;
}

/** The media worker threads, in the process that calls this (the media process). */
export function createMediaPools(options: { maxThreads: number }): MediaPools {
  // V8 flags are the process's: worker threads refuse them, and have `gc` when the process does.
  const execArgv = inheritableExecArgv().filter((arg) => arg !== '--expose-gc');
  const pools: Record<MediaPoolName, Piscina> = {
    // One thread stays warm (loading tsx and sharp takes a few hundred ms); the others come and go.
    images: new Piscina({ filename: WORKER, execArgv, minThreads: 1, maxThreads: options.maxThreads, idleTimeout: 60_000 }),
    // HEIC decoding is synchronous WebAssembly peaking at hundreds of MB, and a WebAssembly heap never shrinks:
    // one thread does it, one photo at a time, and exits when idle to give that memory back.
    heic: new Piscina({ filename: WORKER, execArgv, minThreads: 0, maxThreads: 1, idleTimeout: 10_000 }),
    // Face detection (TensorFlow.js on WebAssembly, ~200 MB once loaded) gets one thread of its own, which exits
    // when idle; its tasks never hold one of the shared image threads.
    faces: new Piscina({ filename: WORKER, execArgv, minThreads: 0, maxThreads: 1, maxQueue: 8, idleTimeout: 60_000 }),
  };
  return {
    run: (pool, task, timeoutMs) => {
      const input = ownCopy(task.input);
      return pools[pool].run({ ...task, input }, {
        transferList: [input.buffer as ArrayBuffer],
        signal: timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs),
      });
    },
    close: async () => {
      await Promise.all(Object.values(pools).map((pool) => pool.destroy()));
    },
  };
}

/**
 * The input in an ArrayBuffer of its own, which is then moved (not cloned) to the worker thread: the one it came
 * in when it has it to itself (as a file read gives it), else a copy. Moving a shared buffer would take (or fail
 * on) whatever else uses it, such as Node's pool of small buffers.
 */
function ownCopy(input: Uint8Array): Uint8Array {
  if (input.byteOffset === 0 && input.byteLength === input.buffer.byteLength && input.buffer instanceof ArrayBuffer) return input;
  const copy = new Uint8Array(input.byteLength);
  copy.set(input);
  return copy;
}
