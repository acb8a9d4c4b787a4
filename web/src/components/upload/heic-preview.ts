import type {
  HeicPreviewFailure,
  HeicPreviewMessage,
  HeicPreviewRequest,
  HeicPreviewResult,
  HeicPreviewStage,
} from '@/workers/heic-preview-protocol';

/**
 * Longest side of a HEIC preview: sharp enough to place bars on a phone or a desktop screen, and a 12 MP photo
 * becomes a ~3 MP JPEG of a few hundred kB instead of a 48 MB bitmap kept for the page's lifetime.
 */
export const HEIC_PREVIEW_MAX_SIDE = 2048;
export const HEIC_PREVIEW_QUALITY = 0.9;
/** A decode still running after this long is given up: the page says so and the upload stays possible. */
export const HEIC_PREVIEW_TIMEOUT_MS = 60_000;

/** A preview that could not be made, and why (its words are on the page). */
export class HeicPreviewError extends Error {
  constructor(
    readonly reason: HeicPreviewFailure,
    message: string,
  ) {
    super(message);
    this.name = 'HeicPreviewError';
  }
}

/** The part of a Worker this module uses, so tests can stand in for one (jsdom has no workers). */
export interface PreviewWorker {
  postMessage(message: HeicPreviewRequest): void;
  terminate(): void;
  onmessage: ((event: MessageEvent<HeicPreviewMessage>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
}

/**
 * The decoder's worker. Its script, and the WebAssembly decoder it fetches, are separate files of the build:
 * nothing of them loads until a HEIC photo is chosen.
 */
export function startPreviewWorker(): PreviewWorker {
  return new Worker(new URL('../../workers/heic-preview.worker.ts', import.meta.url), { type: 'module', name: 'heic-preview' });
}

export interface HeicPreviewOptions {
  signal?: AbortSignal;
  onStage?: (stage: HeicPreviewStage) => void;
  maxSide?: number;
  timeoutMs?: number;
  startWorker?: () => PreviewWorker;
}

/**
 * Decodes `file` (HEIC/HEIF) in a worker of its own into an upright JPEG preview of at most `maxSide` pixels on
 * its longest side. The worker ends with the answer, an abort or the timeout, and its memory with it. Rejects with
 * a HeicPreviewError, or an AbortError when `signal` aborts.
 */
export function makeHeicPreview(file: Blob, options: HeicPreviewOptions = {}): Promise<HeicPreviewResult> {
  const {
    signal,
    onStage,
    maxSide = HEIC_PREVIEW_MAX_SIDE,
    timeoutMs = HEIC_PREVIEW_TIMEOUT_MS,
    startWorker = startPreviewWorker,
  } = options;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The preview was cancelled.', 'AbortError'));
      return;
    }
    let worker: PreviewWorker;
    try {
      worker = startWorker();
    } catch (error) {
      reject(new HeicPreviewError('unavailable', error instanceof Error ? error.message : String(error)));
      return;
    }
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      worker.onmessage = null;
      worker.onerror = null;
      worker.terminate();
      settle();
    };
    const onAbort = () => finish(() => reject(new DOMException('The preview was cancelled.', 'AbortError')));
    const timer = setTimeout(
      () => finish(() => reject(new HeicPreviewError('unavailable', `No preview after ${timeoutMs} ms`))),
      timeoutMs,
    );
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.onmessage = ({ data }) => {
      if (data.type === 'stage') onStage?.(data.stage);
      else if (data.type === 'done') {
        const { type: _type, ...result } = data;
        finish(() => resolve(result));
      } else finish(() => reject(new HeicPreviewError(data.reason, data.detail)));
    };
    // The worker's script did not load or threw outside a request (a policy refusing it, an old browser).
    worker.onerror = (event) => {
      event.preventDefault?.();
      finish(() => reject(new HeicPreviewError('unavailable', event.message || 'The preview worker failed')));
    };
    worker.postMessage({ file, maxSide, quality: HEIC_PREVIEW_QUALITY });
  });
}
