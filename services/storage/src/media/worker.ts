import sharp from 'sharp';
import { ImageTooLargeError, UnsupportedImageError } from './errors.js';
import { processAvatar, processPhoto, renderDerivatives } from './pipeline.js';
import type { MediaResult, MediaTask } from './protocol.js';
import { releaseMemorySoon } from './release-memory.js';

// Every image is different, so libvips' operation cache would only hold on to memory.
sharp.cache(false);

/** The piscina task handler, on a worker thread of the media process; loaded through worker-entry.mjs. */
export default async function runMediaTask(task: MediaTask): Promise<MediaResult<MediaTask['kind']>> {
  // The input arrives as a transferred Uint8Array; viewing it as a Buffer copies nothing.
  const input = Buffer.from(task.input.buffer, task.input.byteOffset, task.input.byteLength);
  const limits = { maxInputPixels: task.maxInputPixels };
  try {
    switch (task.kind) {
      case 'photo':
        return { ok: true, value: await processPhoto(input, task.sourceMimeType, task.bars, limits) };
      case 'derivatives':
        return { ok: true, value: await renderDerivatives(input, task.bars, limits, task.derivatives) };
      case 'avatar':
        return { ok: true, value: await processAvatar(input, limits) };
      case 'faces': {
        // Loaded only by the face thread: TensorFlow.js costs ~200 MB that the sharp threads never need.
        const { countFaces } = await import('./faces.js');
        return { ok: true, value: await countFaces(input) };
      }
      case 'face-boxes': {
        const { detectFaceBoxes } = await import('./faces.js');
        return { ok: true, value: await detectFaceBoxes(input, task.maxInputPixels) };
      }
    }
  } catch (error) {
    if (error instanceof ImageTooLargeError) return { ok: false, cause: describe(error.cause), tooLarge: true };
    if (error instanceof UnsupportedImageError) return { ok: false, cause: describe(error.cause) };
    throw error;
  } finally {
    releaseMemorySoon();
  }
}

function describe(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
