import type { PhotoStatus } from './photo.repository.js';

/**
 * Repeat uploads, as the admin's review list marks them. Nothing is decided from them: they tell the admin that a
 * pending photo looks like one that was rejected before (and why), or that its uploader already sent these exact
 * bytes.
 *
 * - Similar to a rejected photo: the 64-bit difference hashes (storage computes them from a 9×8 greyscale
 *   thumbnail) differ in at most SIMILAR_MAX_DISTANCE bits. A re-encoded or resized copy stays within a few bits;
 *   unrelated pictures are about 32 apart. Rejected photos' hashes are kept after the photo is deleted
 *   (`rejected_hashes`), so a rejected picture is recognised even after the rejected-photos cleanup.
 * - Exact duplicate: an earlier photo of the same uploader with the same SHA-256 of the uploaded bytes (the
 *   oldest, if there are several; the first upload itself is not marked).
 */
export const SIMILAR_MAX_DISTANCE = 6;

export interface SimilarRejectedPhoto {
  photoId: number;
  rejectionReason: string;
  /** Differing bits, 0 to SIMILAR_MAX_DISTANCE. */
  distance: number;
  sameUploader: boolean;
  rejectedAt: Date;
}

export interface DuplicatePhoto {
  photoId: number;
  status: PhotoStatus;
}

export interface ReviewMarks {
  similarRejected?: SimilarRejectedPhoto;
  duplicateOf?: DuplicatePhoto;
}

/** At most this many blob keys per FindReferencedBlobs call. */
export const MAX_REFERENCE_KEYS = 1000;

const HASH = /^[0-9a-f]{16}$/i;

/** A hash as storage writes it (16 hex digits), as the signed 64-bit integer `rejected_hashes` keeps; null for anything else. */
export function hashToBigInt(hash: string | null | undefined): bigint | null {
  if (!hash || !HASH.test(hash)) return null;
  return BigInt.asIntN(64, BigInt(`0x${hash}`));
}

/** Differing bits of two 64-bit hashes. */
export function hammingDistance(a: bigint, b: bigint): number {
  let diff = BigInt.asUintN(64, a ^ b);
  let bits = 0;
  while (diff !== 0n) {
    diff &= diff - 1n;
    bits++;
  }
  return bits;
}
