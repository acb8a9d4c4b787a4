/**
 * What the upload page and the HEIC preview worker (heic-preview.worker.ts) say to each other. The page sends
 * one request per worker and ends the worker once it has the answer, which frees the decoder's WebAssembly
 * memory (a WebAssembly heap never shrinks while its worker lives).
 */

export interface HeicPreviewRequest {
  file: Blob;
  /** Longest side of the preview, in pixels; a smaller photo keeps its size. */
  maxSide: number;
  /** JPEG quality of the preview, 0–1. */
  quality: number;
}

/** Where the worker is: fetching and compiling the decoder (first HEIC only), decoding, then scaling. */
export type HeicPreviewStage = 'loading-decoder' | 'decoding' | 'scaling';

export interface HeicPreviewResult {
  /** The preview as a JPEG, upright as the server stores the photo. */
  blob: Blob;
  width: number;
  height: number;
  /** The photo's own size, upright. */
  sourceWidth: number;
  sourceHeight: number;
  /** Who decoded it: the browser itself (Safari reads HEIC) or libheif's WebAssembly build. */
  decoder: 'browser' | 'libheif';
  /** Milliseconds spent in each step, for measuring. */
  timings: { load: number; decode: number; scale: number };
}

export type HeicPreviewMessage =
  | { type: 'stage'; stage: HeicPreviewStage }
  | ({ type: 'done' } & HeicPreviewResult)
  | { type: 'error'; reason: HeicPreviewFailure; detail: string };

/**
 * Why a preview could not be made, each with its own words on the page: the file is not a HEIC image the decoder
 * can read, it has too many pixels to decode on this device, or the decoder cannot run here (an old browser, the
 * decoder's file not loading, no answer in time).
 */
export type HeicPreviewFailure = 'unreadable' | 'too-large' | 'unavailable';

/**
 * Photos above this many pixels are not previewed. Decoding takes about 17 bytes per pixel at its peak (the
 * decoder's frames and RGBA image, the copy handed to the canvas, the scaled bitmap): ~200 MB for a 12 MP phone
 * photo, ~420 MB at this limit, which covers the 24 MP photos recent phones take by default. A 48 MP photo would
 * need ~800 MB, more than a phone's browser tab can count on; it still uploads.
 */
export const HEIC_PREVIEW_MAX_PIXELS = 25_000_000;

/** The size of a preview of a `width`×`height` photo whose longest side is at most `maxSide`. */
export function previewSize(width: number, height: number, maxSide: number): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}
