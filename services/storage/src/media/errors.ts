import { UPLOAD } from '@snapcracks/http-contract';

/**
 * Anything the uploader sent that we will not turn into a photo: not an image, a format we do not take,
 * truncated or corrupt, too large, or a decompression bomb. The message is shown to people as is, so it
 * is the same for every cause; the cause is kept for logs.
 */
export class UnsupportedImageError extends Error {
  override readonly name: string = 'UnsupportedImageError';

  constructor(options?: { cause?: unknown }) {
    super(UPLOAD.refused, options);
  }
}

/**
 * An image larger (width × height) than the pixel limit (IMAGE_MAX_PIXELS), found from its header before a pixel is
 * decoded. Its message says what would be accepted, so the member knows to send a smaller photo.
 */
export class ImageTooLargeError extends UnsupportedImageError {
  override readonly name: string = 'ImageTooLargeError';
  override readonly message: string;

  constructor(
    readonly maxPixels: number,
    options?: { cause?: unknown },
  ) {
    super(options);
    this.message = imageTooLargeMessage(maxPixels);
  }
}

/** "Photos of up to 50 megapixels are accepted. …", the limit rounded down to a whole number of megapixels. */
export function imageTooLargeMessage(maxPixels: number): string {
  const megapixels = Math.max(1, Math.floor(maxPixels / 1_000_000));
  return `Photos of up to ${megapixels} megapixels are accepted. Please upload a smaller version of this photo.`;
}

/**
 * The face detector did not answer in time, failed or had too many photos queued. Not the photo's fault:
 * the member may try again, or draw the bars themselves.
 */
export class FaceDetectionUnavailableError extends Error {
  override readonly name = 'FaceDetectionUnavailableError';

  constructor(options?: { cause?: unknown }) {
    super('Face detection is not available right now. Please try again.', options);
  }
}
