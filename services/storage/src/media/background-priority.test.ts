import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { IMAGE_WORK_NICENESS } from './background-priority.js';
import { ImageProcessor } from './image-processor.js';
import { generatedPhoto } from './test-images.js';

interface Thread {
  name: string;
  niceness: number;
}

function threadsOf(pid: number | 'self'): Thread[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((tid) => {
    try {
      return [{ name: readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim(), niceness: getPriority(Number(tid)) }];
    } catch {
      return [];
    }
  });
}

const processor = new ImageProcessor({ maxThreads: 1 });
afterAll(() => processor.close());

describe.runIf(process.platform === 'linux' && getPriority() < IMAGE_WORK_NICENESS)('image work priority', { timeout: 30_000 }, () => {
  it('does the image work in another process whose every thread runs below request handling', async () => {
    const before = threadsOf('self').map((thread) => thread.niceness);
    await processor.processPhoto(await generatedPhoto(1600, 1200));

    const pid = processor.mediaProcessId;
    expect(pid).toBeDefined();
    expect(pid).not.toBe(process.pid);
    const media = threadsOf(pid!);
    expect(media.filter((t) => t.name.startsWith('libvips worker')).length).toBeGreaterThan(0);
    expect(media.filter((t) => t.niceness < IMAGE_WORK_NICENESS)).toEqual([]);
    // The service's own threads keep their priority.
    expect(Math.max(...threadsOf('self').map((thread) => thread.niceness))).toBe(Math.max(...before));
  });

  it('starts a new media process when the old one dies, failing only the calls it had', async () => {
    await processor.processPhoto(await generatedPhoto(800, 600));
    const first = processor.mediaProcessId!;
    const inFlight = processor.processPhoto(await generatedPhoto(3000, 2000));
    await new Promise((resolve) => setTimeout(resolve, 50));
    process.kill(first, 'SIGKILL');
    await expect(inFlight).rejects.toThrow(/media process exited/);

    const photo = await processor.processPhoto(await generatedPhoto(800, 600));
    expect(photo.display.width).toBe(800);
    expect(processor.mediaProcessId).not.toBe(first);
  });
});
