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

export type SourceMimeType = 'image/jpeg' | 'image/png' | 'image/heic' | 'image/heif' | 'image/webp';

export interface ProcessedPhoto {
  /** Upright, unredacted, metadata stripped; JPEG for JPEG/HEIC/HEIF input, PNG for PNG, WebP for WebP. */
  original: EncodedImage;
  /** WebP, long edge <= 2048, bars burned in. */
  display: EncodedImage;
  /** WebP, long edge <= 480, bars burned in. */
  thumbnail: EncodedImage;
  sourceMimeType: SourceMimeType;
  /** Hex SHA-256 of the uploaded bytes. */
  sha256: string;
  /** 64-bit dHash of the upright, unredacted image, 16 hex digits. */
  perceptualHash: string;
}
