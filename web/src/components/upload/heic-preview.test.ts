import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HeicPreviewMessage, HeicPreviewRequest } from '@/workers/heic-preview-protocol';
import { HeicPreviewError, makeHeicPreview, type PreviewWorker } from './heic-preview';

/** A worker the test drives by hand: what the page posted, and whether it was ended. */
class ManualWorker implements PreviewWorker {
  onmessage: ((event: MessageEvent<HeicPreviewMessage>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  posted: HeicPreviewRequest[] = [];
  terminated = false;
  postMessage(message: HeicPreviewRequest) {
    this.posted.push(message);
  }
  terminate() {
    this.terminated = true;
  }
  send(message: HeicPreviewMessage) {
    this.onmessage?.({ data: message } as MessageEvent<HeicPreviewMessage>);
  }
}

const heic = new File(['heic'], 'IMG_0001.HEIC', { type: 'image/heic' });
const done: HeicPreviewMessage = {
  type: 'done',
  blob: new Blob(['jpeg'], { type: 'image/jpeg' }),
  width: 2048,
  height: 1536,
  sourceWidth: 4032,
  sourceHeight: 3024,
  decoder: 'libheif',
  timings: { load: 40, decode: 1100, scale: 90 },
};

afterEach(() => {
  vi.useRealTimers();
});

describe('makeHeicPreview', () => {
  it('asks a worker of its own for a bounded JPEG, reports its stages, answers the preview and ends the worker', async () => {
    const worker = new ManualWorker();
    const stages: string[] = [];
    const preview = makeHeicPreview(heic, { startWorker: () => worker, onStage: (stage) => stages.push(stage) });
    expect(worker.posted).toEqual([{ file: heic, maxSide: 2048, quality: 0.9 }]);
    worker.send({ type: 'stage', stage: 'loading-decoder' });
    worker.send({ type: 'stage', stage: 'decoding' });
    worker.send(done);
    const { type: _type, ...result } = done as Extract<HeicPreviewMessage, { type: 'done' }>;
    await expect(preview).resolves.toEqual(result);
    expect(stages).toEqual(['loading-decoder', 'decoding']);
    expect(worker.terminated).toBe(true);
  });

  it("rejects with the worker's reason when the photo cannot be decoded", async () => {
    const worker = new ManualWorker();
    const preview = makeHeicPreview(heic, { startWorker: () => worker });
    worker.send({ type: 'error', reason: 'too-large', detail: '8064×6048 is too large to preview' });
    await expect(preview).rejects.toEqual(new HeicPreviewError('too-large', '8064×6048 is too large to preview'));
    await expect(preview).rejects.toMatchObject({ reason: 'too-large' });
    expect(worker.terminated).toBe(true);
  });

  it('rejects as unavailable when the worker cannot start or its script fails', async () => {
    await expect(
      makeHeicPreview(heic, {
        startWorker: () => {
          throw new ReferenceError('Worker is not defined');
        },
      }),
    ).rejects.toMatchObject({ reason: 'unavailable' });

    const worker = new ManualWorker();
    const preview = makeHeicPreview(heic, { startWorker: () => worker });
    worker.onerror?.({ message: 'Refused to load the script', preventDefault: () => undefined } as ErrorEvent);
    await expect(preview).rejects.toMatchObject({ reason: 'unavailable', message: 'Refused to load the script' });
    expect(worker.terminated).toBe(true);
  });

  it('gives up after the timeout, and ends the worker', async () => {
    vi.useFakeTimers();
    const worker = new ManualWorker();
    const preview = makeHeicPreview(heic, { startWorker: () => worker, timeoutMs: 1000 });
    const settled = expect(preview).rejects.toMatchObject({ reason: 'unavailable' });
    await vi.advanceTimersByTimeAsync(1000);
    await settled;
    expect(worker.terminated).toBe(true);
    // A late answer changes nothing.
    worker.send(done);
  });

  it('stops when its signal aborts (another photo chosen, the page left)', async () => {
    const worker = new ManualWorker();
    const controller = new AbortController();
    const preview = makeHeicPreview(heic, { startWorker: () => worker, signal: controller.signal });
    controller.abort();
    await expect(preview).rejects.toMatchObject({ name: 'AbortError' });
    expect(worker.terminated).toBe(true);

    const never = vi.fn(() => new ManualWorker());
    await expect(makeHeicPreview(heic, { startWorker: never, signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(never).not.toHaveBeenCalled();
  });
});
