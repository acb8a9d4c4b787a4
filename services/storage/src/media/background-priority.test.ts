import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { IMAGE_WORK_NICENESS } from './background-priority.js';
import { ImageProcessor } from './image-processor.js';
import { generatedPhoto } from './test-images.js';

interface Thread {
  tid: number;
  name: string;
  niceness: number;
}

function threads(): Thread[] {
  return readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      return [{ tid: Number(tid), name: readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim(), niceness: getPriority(Number(tid)) }];
    } catch {
      return [];
    }
  });
}

const processor = new ImageProcessor({ maxThreads: 1 });
afterAll(() => processor.close());

describe.runIf(process.platform === 'linux' && getPriority() < IMAGE_WORK_NICENESS)('image work priority', { timeout: 30_000 }, () => {
  it('runs the media worker and the libvips threads below request handling, and leaves the process itself alone', async () => {
    const before = getPriority(process.pid);
    await processor.processPhoto(await generatedPhoto(1600, 1200));
    const after = threads();
    const libvips = after.filter((t) => t.name.startsWith('libvips worker'));
    expect(libvips.length).toBeGreaterThan(0);
    expect(libvips.filter((t) => t.niceness < IMAGE_WORK_NICENESS)).toEqual([]);
    // The media worker is a thread of this process; it is the one non-libvips thread that lowered itself.
    expect(after.filter((t) => !t.name.startsWith('libvips worker') && t.niceness >= IMAGE_WORK_NICENESS)).toHaveLength(1);
    expect(getPriority(process.pid)).toBe(before);
  });
});
