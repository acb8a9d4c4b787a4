// The image work's bounds by default (IMAGE_MAX_PIXELS, IMAGE_QUEUE_LIMIT, IMAGE_QUEUE_PER_MEMBER).

/**
 * Phones take 12–50 MP photos, so 50 MP is the largest a member needs. A decode costs 3–4 bytes a pixel several times
 * over (10–13 for HEIC, in the decoder's WebAssembly memory): the chart's storage memory limit is measured for it.
 */
export const DEFAULT_MAX_INPUT_PIXELS = 50_000_000;
/** Images waiting for a media thread, everyone's together: with one thread, a few minutes of work at most. */
export const DEFAULT_MAX_QUEUED = 32;
/** Images one member may have waiting: more than the web app ever sends (one upload at a time). */
export const DEFAULT_MAX_QUEUED_PER_MEMBER = 4;
