import { lowerProcessPriority } from './background-priority.js';
import { createMediaPools } from './media-pools.js';
import type { MediaProcessReply, MediaProcessRequest } from './media-process.js';

// The media process: the storage service's image work, in a process of its own at background priority
// (media-process.ts explains why). It serves requests from its parent until the parent goes away.

// First, before this process starts threads of its own: every thread started later inherits the priority.
lowerProcessPriority();

const maxThreads = Number(process.env.SNAPCRACKS_MEDIA_THREADS ?? '1');
const pools = createMediaPools({ maxThreads: Number.isInteger(maxThreads) && maxThreads > 0 ? maxThreads : 1 });

function reply(message: MediaProcessReply): void {
  // The parent may be gone (it exited, or closed the channel while a task ran): nobody is left to answer.
  if (process.connected) process.send!(message);
}

process.on('message', (request: MediaProcessRequest) => {
  pools.run(request.pool, request.task, request.timeoutMs).then(
    (result) => reply({ id: request.id, result }),
    (error: unknown) => reply({ id: request.id, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }),
  );
});

// Ctrl-C in a terminal and a container's stop reach the whole process group: the service decides when image work
// ends (it lets calls in flight finish, then closes the channel), so the signals are its alone to act on.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => undefined);

process.on('disconnect', () => {
  void pools.close().finally(() => process.exit(0));
});
