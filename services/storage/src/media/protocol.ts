import type { AvatarOutput, DerivativesOutput, PhotoOutput } from './pipeline.js';
import type { FaceBox } from './face-bars.js';
import type { DerivativeKind, PrivacyBar, SourceMimeType } from './types.js';

// What crosses between the storage service's thread and the media workers.

export type MediaTask =
  | { kind: 'photo'; input: Uint8Array; sourceMimeType: SourceMimeType; bars: PrivacyBar[]; maxInputPixels: number }
  | { kind: 'derivatives'; input: Uint8Array; bars: PrivacyBar[]; derivatives: DerivativeKind[]; maxInputPixels: number }
  | { kind: 'avatar'; input: Uint8Array; maxInputPixels: number }
  | { kind: 'faces'; input: Uint8Array; maxInputPixels: number }
  | { kind: 'face-boxes'; input: Uint8Array; maxInputPixels: number };

export interface MediaOutputs {
  photo: PhotoOutput;
  derivatives: Partial<DerivativesOutput>;
  avatar: AvatarOutput;
  faces: number;
  'face-boxes': FaceBox[];
}

/**
 * A refused input is an answer, not a crash: errors lose their class when they cross threads, so the
 * worker says "unsupported" explicitly (with the cause for logs) and the caller rebuilds the error.
 */
export type MediaResult<K extends MediaTask['kind']> =
  | { ok: true; value: MediaOutputs[K] }
  | { ok: false; cause: string; /** The input is over the pixel limit (its header said so): ImageTooLargeError. */ tooLarge?: true };
