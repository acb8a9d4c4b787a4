import { useEffect, useMemo, useState } from 'react';
import type { HeicPreviewFailure, HeicPreviewStage } from '@/workers/heic-preview-protocol';
import { HeicPreviewError, makeHeicPreview, type HeicPreviewOptions } from './heic-preview';
import { isHeicFile } from './upload-rules';

/**
 * What the upload page can show of the chosen photo:
 * - `ready`: `url` to draw privacy bars on, and `image`, the picture it shows (the file itself, or a HEIC photo's
 *   decoded JPEG: what face suggestions are made from, so their percentages match the preview);
 * - `preparing`: a HEIC photo being decoded (`stage` once the worker has started);
 * - `failed`: a HEIC photo that could not be decoded here (the upload still works).
 */
export type PhotoPreview =
  | { status: 'none' }
  | { status: 'preparing'; stage: HeicPreviewStage | null }
  | { status: 'ready'; url: string; image: Blob }
  | { status: 'failed'; reason: HeicPreviewFailure };

type HeicState =
  | { file: File; status: 'preparing'; stage: HeicPreviewStage | null }
  | { file: File; status: 'ready'; url: string; image: Blob }
  | { file: File; status: 'failed'; reason: HeicPreviewFailure };

/** A blob URL for `blob`, revoked when it changes or the page goes away. */
function useObjectUrl(blob: Blob | null): string | null {
  const url = useMemo(() => (blob && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(blob) : null), [blob]);
  useEffect(() => (url ? () => URL.revokeObjectURL(url) : undefined), [url]);
  return url;
}

function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/**
 * The preview of `file`. Browsers show JPEG, PNG and WebP themselves; a HEIC/HEIF photo is decoded in a worker
 * (heic-preview.ts), and a new file or leaving the page stops a decode still running.
 */
export function usePhotoPreview(file: File | null, options: Pick<HeicPreviewOptions, 'startWorker' | 'timeoutMs'> = {}): PhotoPreview {
  const heic = file !== null && isHeicFile(file);
  const plainUrl = useObjectUrl(file && !heic ? file : null);
  const [heicState, setHeicState] = useState<HeicState | null>(null);
  const { startWorker, timeoutMs } = options;

  useEffect(() => {
    if (!file || !heic) return;
    const controller = new AbortController();
    let url: string | null = null;
    makeHeicPreview(file, {
      signal: controller.signal,
      startWorker,
      timeoutMs,
      onStage: (stage) => setHeicState({ file, status: 'preparing', stage }),
    }).then(
      (result) => {
        url = URL.createObjectURL(result.blob);
        setHeicState({ file, status: 'ready', url, image: result.blob });
      },
      (error: unknown) => {
        if (isAbortError(error)) return;
        // The page says it in words; the cause is for whoever looks at the console.
        console.warn('No preview for this HEIC photo:', error instanceof Error ? error.message : error);
        setHeicState({ file, status: 'failed', reason: error instanceof HeicPreviewError ? error.reason : 'unreadable' });
      },
    );
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [file, heic, startWorker, timeoutMs]);

  if (!file) return { status: 'none' };
  if (!heic) return plainUrl ? { status: 'ready', url: plainUrl, image: file } : { status: 'preparing', stage: null };
  // Until the worker answers for this file, it is being prepared (a state left from the previous file is stale).
  if (!heicState || heicState.file !== file) return { status: 'preparing', stage: null };
  const { file: _file, ...preview } = heicState;
  return preview;
}
