// The storage service's media module: the only code in the repository that decodes or encodes images.
export type { EncodedImage, PrivacyBar, ProcessedPhoto } from './types.js';
export { FaceDetectionUnavailableError, ImageTooLargeError, UnsupportedImageError } from './errors.js';
export { ImageQueueFullError } from './fair-queue.js';
export { hammingDistance } from './dhash.js';
export { ImageProcessor, type ImageProcessorOptions } from './image-processor.js';
export { DEFAULT_MAX_INPUT_PIXELS, DEFAULT_MAX_QUEUED, DEFAULT_MAX_QUEUED_PER_MEMBER } from './image-limits.js';
export { DERIVATIVE_EDGES, DERIVATIVE_KINDS, type DerivativeKind } from './types.js';
