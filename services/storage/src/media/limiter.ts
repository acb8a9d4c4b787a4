/**
 * At most `limit` tasks at once, first come first served. The image processor uses one to keep its two
 * worker pools (photos, HEIC photos) together within the configured number of threads' worth of CPU
 * and memory, and one to queue HEIC photos for the single HEIC thread.
 */
export class Limiter {
  private running = 0;
  private readonly queue: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  /** Tasks waiting for a slot. */
  get waiting(): number {
    return this.queue.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter, so `running` only drops when nobody waits.
      const next = this.queue.shift();
      if (next) next();
      else this.running--;
    }
  }
}
