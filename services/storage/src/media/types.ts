/**
 * A photo's derivatives, each bounded on its long edge (it fits inside a square of this side, never enlarged), so that a
 * portrait costs what a landscape does. Medium serves the gallery's cards on dense screens, whose 390 px slots need
 * 780–1170 device pixels: at 960 px it is a fifth of the display image's bytes, and sharp where the 480 px thumbnail
 * would be upscaled. The web app knows each derivative's real width from the photo's (web/src/components/photo/image-sources.ts).
 */
export const DERIVATIVE_EDGES = { display: 2048, medium: 960, thumbnail: 480 } as const;
export type DerivativeKind = keyof typeof DERIVATIVE_EDGES;
/** Largest first: each is resized from the pixels of the first one made. */
export const DERIVATIVE_KINDS: readonly DerivativeKind[] = ['display', 'medium', 'thumbnail'];

/** A rectangle to black out, in percentages (0–100) of the upright image. */
export interface PrivacyBar {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface EncodedImage {
  data: Buffer;
  contentType: string;
  width: number;
  height: number;
  /**
   * A strong validator of `data` (32 hex digits of its SHA-256), computed where the image is made: hashing
   * megabytes on the service's own thread would hold up every call it answers meanwhile.
   */
  etag: string;
}

import type { SourceMimeType } from '@snapcracks/kit';
export type { SourceMimeType };

export interface ProcessedPhoto {
  /** Upright, unredacted, metadata stripped; JPEG for JPEG/HEIC/HEIF input, PNG for PNG, WebP for WebP. */
  original: EncodedImage;
  /** WebP, long edge <= 2048, bars burned in. */
  display: EncodedImage;
  /** WebP, long edge <= 960, bars burned in. */
  medium: EncodedImage;
  /** WebP, long edge <= 480, bars burned in. */
  thumbnail: EncodedImage;
  sourceMimeType: SourceMimeType;
  /** Hex SHA-256 of the uploaded bytes. */
  sha256: string;
  /** 64-bit dHash of the upright, unredacted image, 16 hex digits. */
  perceptualHash: string;
}
