import { describe, expect, it, vi } from 'vitest';
import { InvalidArgumentError, UnavailableError, type Logger } from '@snapcracks/kit';
import type { Backends } from './backends/index.js';
import type { BlobRepository } from './blob.repository.js';
import type { DriveAuthorization } from './drive-authorization.js';
import { FaceDetectionUnavailableError, UnsupportedImageError } from './media/index.js';
import { FACE_SUGGESTIONS_REFUSED, MAX_FACE_SUGGESTION_BYTES, StorageService, type ImageWork } from './storage.service.js';

// Suggestions touch neither the blobs table nor a backend: only the image work is real here.
function serviceWith(suggestFaceBars: ImageWork['suggestFaceBars']) {
  const logger = { warn: vi.fn() } as unknown as Logger;
  const images = { suggestFaceBars } as ImageWork;
  const service = new StorageService({} as BlobRepository, {} as Backends, images, {} as DriveAuthorization, logger);
  return { service, logger };
}

const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);

describe('StorageService.suggestFaceBars', () => {
  it('answers the bars the detector proposes', async () => {
    const bars = [{ x: 1, y: 2, width: 3, height: 4 }];
    const { service } = serviceWith(async () => bars);
    await expect(service.suggestFaceBars(jpeg)).resolves.toEqual(bars);
  });

  it('refuses an empty or too large image, and one that does not decode, with one message', async () => {
    const { service } = serviceWith(async () => {
      throw new UnsupportedImageError();
    });
    for (const image of [Buffer.alloc(0), Buffer.alloc(MAX_FACE_SUGGESTION_BYTES + 1), jpeg]) {
      const error = await service.suggestFaceBars(image).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect((error as Error).message).toBe(FACE_SUGGESTIONS_REFUSED);
    }
  });

  it('is UNAVAILABLE, and logged, when the detector is slow, busy or failing', async () => {
    const cause = new Error('The task has been aborted');
    const { service, logger } = serviceWith(async () => {
      throw new FaceDetectionUnavailableError({ cause });
    });
    await expect(service.suggestFaceBars(jpeg)).rejects.toBeInstanceOf(UnavailableError);
    expect(logger.warn).toHaveBeenCalledWith({ err: cause }, 'face detection for suggestions did not answer');
    await expect(serviceWith(undefined).service.suggestFaceBars(jpeg)).rejects.toBeInstanceOf(UnavailableError);
  });
});
