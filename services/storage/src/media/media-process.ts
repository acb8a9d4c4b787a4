import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bytesToFile, imagesFromFiles, type BytesFile } from './media-bytes.js';
import { inheritableExecArgv, type MediaPoolName, type MediaPools } from './media-pools.js';
import type { MediaResult, MediaTask } from './protocol.js';

/** A task as it goes to the media process: its input in a file (media-bytes.ts). */
export type ShippedTask = MediaTask extends infer T ? (T extends MediaTask ? Omit<T, 'input'> & { input: BytesFile } : never) : never;

export interface MediaProcessRequest {
  id: number;
  pool: MediaPoolName;
  task: ShippedTask;
  timeoutMs?: number;
}

export type MediaProcessReply = { id: number; result: MediaResult<MediaTask['kind']> } | { id: number; error: string };

export interface MediaProcess extends MediaPools {
  /** The media process's id while it runs. */
  readonly pid: number | undefined;
}

const ENTRY = fileURLToPath(new URL('./media-process-entry.mjs', import.meta.url));
/** How the media process learns its settings. */
export const MEDIA_PROCESS_VARIABLES = { dir: 'SNAPCRACKS_MEDIA_DIR', threads: 'SNAPCRACKS_MEDIA_THREADS', niceness: 'SNAPCRACKS_MEDIA_NICENESS' } as const;
/** How long close() lets the media process finish its tasks before it is killed. */
const CLOSE_GRACE_MS = 5_000;

interface Running {
  child: ChildProcess;
  pending: Map<number, { resolve(result: MediaResult<MediaTask['kind']>): void; reject(error: Error): void }>;
}

/**
 * The media worker pools in a child process of their own, at background priority (a higher niceness, on Linux).
 * Worker threads alone cannot be kept off the cores that answer calls: sharp does part of each photo on Node's
 * libuv thread pool, which the whole process shares (file access, crypto, DNS) and whose threads cannot be told
 * apart, so lowering them would slow every caller. In a process of its own, every thread the image work starts
 * inherits the low priority, and an upload burst only gets the CPU that request handling leaves. It also keeps a
 * crash in native image code from taking the service down: the calls in flight fail, and the next one starts
 * a new media process. Inputs and outputs cross in files of a private temporary directory (media-bytes.ts).
 */
export function startMediaProcess(options: { maxThreads: number; niceness: number }): MediaProcess {
  let running: Running | undefined;
  let closed = false;
  let nextId = 1;
  const dir = mkdtempSync(join(tmpdir(), 'snapcracks-media-'));

  function start(): Running {
    const child = fork(ENTRY, [], {
      // --expose-gc: the media process and its threads collect their garbage after each task (release-memory.ts).
      execArgv: [...inheritableExecArgv(), '--expose-gc'],
      env: {
        ...process.env,
        [MEDIA_PROCESS_VARIABLES.dir]: dir,
        [MEDIA_PROCESS_VARIABLES.threads]: String(options.maxThreads),
        [MEDIA_PROCESS_VARIABLES.niceness]: String(options.niceness),
      },
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const self: Running = { child, pending: new Map() };
    child.on('message', (reply: MediaProcessReply) => {
      const task = self.pending.get(reply.id);
      if (!task) return;
      self.pending.delete(reply.id);
      if ('result' in reply) task.resolve(reply.result);
      else task.reject(new Error(reply.error));
      if (self.pending.size === 0) idle(self);
    });
    const failAll = (error: Error) => {
      if (running === self) running = undefined;
      for (const task of self.pending.values()) task.reject(error);
      self.pending.clear();
    };
    child.on('exit', (code, signal) => failAll(new Error(`the media process exited (${signal ?? `code ${code}`})`)));
    child.on('error', (error) => failAll(error));
    idle(self);
    return self;
  }

  // An idle media process does not keep the service's process alive; one with work does.
  function idle({ child }: Running): void {
    child.unref();
    child.channel?.unref();
  }
  function busy({ child }: Running): void {
    child.ref();
    child.channel?.ref();
  }

  running = start();

  return {
    get pid() {
      return running?.child.pid;
    },
    async run<K extends MediaTask['kind']>(pool: MediaPoolName, task: MediaTask & { kind: K }, timeoutMs?: number): Promise<MediaResult<K>> {
      if (closed) throw new Error('the image processor is closed');
      const id = nextId++;
      const input = await bytesToFile(dir, `${id}-input`, task.input);
      try {
        const target = (running ??= start());
        const result = await new Promise<MediaResult<K>>((resolve, reject) => {
          target.pending.set(id, { resolve: resolve as (result: MediaResult<MediaTask['kind']>) => void, reject });
          busy(target);
          const request = { id, pool, task: { ...task, input } as ShippedTask, timeoutMs } satisfies MediaProcessRequest;
          target.child.send(request, (error) => {
            if (!error || !target.pending.delete(id)) return;
            reject(error);
            if (target.pending.size === 0) idle(target);
          });
        });
        return result.ok ? { ok: true, value: await imagesFromFiles(result.value) } : result;
      } finally {
        // Read and removed by the media process, unless it failed first.
        await rm(input.file, { force: true });
      }
    },
    async close() {
      closed = true;
      const target = running;
      if (target && target.child.exitCode === null && target.child.signalCode === null) {
        const exited = once(target.child, 'exit');
        if (target.child.connected) target.child.disconnect();
        const timer = setTimeout(() => target.child.kill('SIGKILL'), CLOSE_GRACE_MS);
        await exited;
        clearTimeout(timer);
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
