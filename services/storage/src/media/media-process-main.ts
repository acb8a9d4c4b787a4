import { lowerProcessPriority } from './background-priority.js';
import { bytesFromFile, imagesToFiles } from './media-bytes.js';
import { createMediaPools } from './media-pools.js';
import { releaseMemorySoon } from './release-memory.js';
import { MEDIA_PROCESS_VARIABLES, type MediaProcessReply, type MediaProcessRequest } from './media-process.js';
import type { MediaTask } from './protocol.js';

// The media process: the storage service's image work, in a process of its own at background priority
// (media-process.ts explains why). It serves requests from its parent until the parent goes away.

const dir = process.env[MEDIA_PROCESS_VARIABLES.dir];
if (!dir) throw new Error(`${MEDIA_PROCESS_VARIABLES.dir} is not set: the media process is started by the storage service`);

// First, before this process starts threads of its own: every thread started later inherits the priority.
lowerProcessPriority(Number(process.env[MEDIA_PROCESS_VARIABLES.niceness]));

const pools = createMediaPools({ maxThreads: Number(process.env[MEDIA_PROCESS_VARIABLES.threads]) });

function reply(message: MediaProcessReply): void {
  // The parent may be gone (it exited, or closed the channel while a task ran): nobody is left to answer.
  if (process.connected) process.send!(message);
}

async function serve({ id, pool, task, timeoutMs }: MediaProcessRequest): Promise<void> {
  try {
    const input = await bytesFromFile(task.input);
    const result = await pools.run(pool, { ...task, input } as MediaTask, timeoutMs);
    reply({ id, result: result.ok ? { ok: true, value: await imagesToFiles(dir!, `${id}-output`, result.value) } : result });
  } catch (error) {
    reply({ id, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
  } finally {
    releaseMemorySoon();
  }
}

process.on('message', (request: MediaProcessRequest) => void serve(request));

// Ctrl-C in a terminal and a container's stop reach the whole process group: the service decides when image work
// ends (it lets calls in flight finish, then closes the channel), so the signals are its alone to act on.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => undefined);

process.on('disconnect', () => {
  void pools.close().finally(() => process.exit(0));
});
