import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processMetrics, renderPrometheus, startMetrics, telemetryResource } from '@snapcracks/kit';
import type { ImageProcessor } from './image-processor.js';
import { generatedPhoto, testProcessor } from './test-images.js';

let telemetry: { shutdown(): Promise<void> };
let processor: ImageProcessor;

beforeAll(() => {
  telemetry = startMetrics({ component: 'storage', resource: telemetryResource('storage') });
  // One thread: the second of two photos sent together waits for it.
  processor = testProcessor({ maxThreads: 1 });
});

afterAll(async () => {
  await processor.close();
  await telemetry.shutdown();
});

async function scrape(): Promise<string> {
  const { resourceMetrics } = await processMetrics()!.prometheus.collect();
  return renderPrometheus(resourceMetrics);
}

const value = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('image work metrics', { timeout: 60_000 }, () => {
  it('times image work by kind and counts the images waiting for a thread', async () => {
    const photo = await generatedPhoto(1200, 800);
    const first = processor.processPhoto(photo);
    const second = processor.processPhoto(photo);
    // Both were handed over at once: one runs, one waits.
    expect(value(await scrape(), 'snapcracks_image_queue_depth{component="storage"}')).toBe(1);
    await Promise.all([first, second]);
    await processor.processAvatar(await generatedPhoto(300, 300));

    const text = await scrape();
    expect(value(text, 'snapcracks_image_queue_depth{component="storage"}')).toBe(0);
    expect(value(text, 'snapcracks_image_processing_seconds_count{component="storage",kind="photo"}')).toBe(2);
    expect(value(text, 'snapcracks_image_processing_seconds_count{component="storage",kind="avatar"}')).toBe(1);
    expect(value(text, 'snapcracks_image_processing_seconds_sum{component="storage",kind="photo"}')).toBeGreaterThan(0);
    expect(value(text, 'snapcracks_image_processing_seconds_bucket{component="storage",kind="photo",le="30"}')).toBe(2);
  });
});
