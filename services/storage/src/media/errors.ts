/**
 * Anything the uploader sent that we will not turn into a photo: not an image, a format we do not take,
 * truncated or corrupt, too large, or a decompression bomb. The message is shown to people as is, so it
 * is the same for every cause; the cause is kept for logs.
 */
export class UnsupportedImageError extends Error {
  override readonly name = 'UnsupportedImageError';

  constructor(options?: { cause?: unknown }) {
    super('Only image files (PNG, JPG, JPEG) up to 10MB are accepted', options);
  }
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
