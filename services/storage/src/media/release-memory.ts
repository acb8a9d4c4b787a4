/**
 * Lets the garbage collector run once the current task's answer has gone. Image buffers live outside the
 * JavaScript heap, and V8 collects them only after some 64 MB more of them have piled up: in the media process
 * and its threads, where little else allocates, that is up to a photo's worth of pixels held for nothing after
 * every photo. A collection of their small heaps takes a few milliseconds, at background priority, away from
 * the threads that answer calls. Needs `--expose-gc`, which the media process is started with (media-process.ts);
 * without it this does nothing.
 */
export function releaseMemorySoon(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) setImmediate(gc);
}
