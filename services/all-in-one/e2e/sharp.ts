import { createRequire } from 'node:module';

/**
 * sharp for the end-to-end tests, which make photos and read stored pixels and metadata with it. It is the storage
 * service's dependency (the one module that processes images), not this package's, so it is loaded from there and
 * typed by the part of its API the tests use.
 */
export interface SharpImage {
  composite(layers: Array<{ input: Buffer; left: number; top: number }>): SharpImage;
  jpeg(options: { quality: number }): SharpImage;
  png(): SharpImage;
  removeAlpha(): SharpImage;
  raw(): SharpImage;
  metadata(): Promise<SharpMetadata>;
  toBuffer(): Promise<Buffer>;
  toBuffer(options: { resolveWithObject: true }): Promise<{ data: Buffer; info: { width: number; height: number; channels: number } }>;
}

export interface SharpMetadata {
  format?: string;
  width?: number;
  height?: number;
  exif?: Buffer;
  xmp?: Buffer;
  iptc?: Buffer;
  icc?: Buffer;
  orientation?: number;
}

export type Rgb = { r: number; g: number; b: number };

export const sharp = createRequire(import.meta.resolve('@snapcracks/storage'))('sharp') as (
  input: Buffer | { create: { width: number; height: number; channels: 3; background: Rgb } },
) => SharpImage;
