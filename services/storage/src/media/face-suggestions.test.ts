import { afterAll, describe, expect, it } from 'vitest';
import { FaceDetectionUnavailableError, UnsupportedImageError } from './errors.js';
import { fixture, testProcessor } from './test-images.js';

const processor = testProcessor();
afterAll(() => processor.close());

describe('ImageProcessor.suggestFaceBars', () => {
  it('refuses bytes that are not a JPEG, PNG or WebP before any thread is involved', async () => {
    await expect(processor.suggestFaceBars(Buffer.from('not an image'))).rejects.toBeInstanceOf(UnsupportedImageError);
    await expect(processor.suggestFaceBars(fixture('photo.heic'))).rejects.toBeInstanceOf(UnsupportedImageError);
  });

  it('gives up when the detector does not answer in time (a cold thread loads the model first)', async () => {
    await expect(processor.suggestFaceBars(fixture('photo.png'), 1)).rejects.toBeInstanceOf(FaceDetectionUnavailableError);
  });

  it('answers no bars for a photo without faces', async () => {
    expect(await processor.suggestFaceBars(fixture('photo.png'))).toEqual([]);
  }, 60_000);
});
