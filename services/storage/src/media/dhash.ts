/** Width and height of the greyscale thumbnail a dHash is computed from: 9 columns give 8 differences per row. */
export const DHASH_WIDTH = 9;
export const DHASH_HEIGHT = 8;

/**
 * Difference hash: one bit per horizontally adjacent pixel pair of a 9×8 greyscale image, set when
 * brightness rises to the right. It survives resizing and re-encoding (near-duplicate uploads) but not
 * different content. `grey` is row-major, one byte per pixel.
 */
export function dHash(grey: Uint8Array): string {
  if (grey.length !== DHASH_WIDTH * DHASH_HEIGHT) {
    throw new RangeError(`dHash needs ${DHASH_WIDTH * DHASH_HEIGHT} grey pixels, got ${grey.length}`);
  }
  let hex = '';
  for (let y = 0; y < DHASH_HEIGHT; y++) {
    // Each row yields 8 bits: two hex digits.
    let byte = 0;
    for (let x = 0; x < DHASH_WIDTH - 1; x++) {
      const left = grey[y * DHASH_WIDTH + x]!;
      const right = grey[y * DHASH_WIDTH + x + 1]!;
      byte = (byte << 1) | (right > left ? 1 : 0);
    }
    hex += byte.toString(16).padStart(2, '0');
  }
  return hex;
}

const HASH_PATTERN = /^[0-9a-f]{16}$/i;

/** Number of differing bits between two perceptual hashes: 0 is the same picture, about 32 unrelated ones. */
export function hammingDistance(a: string, b: string): number {
  if (!HASH_PATTERN.test(a) || !HASH_PATTERN.test(b)) {
    throw new TypeError('perceptual hashes are 16 hex digits');
  }
  let distance = 0;
  for (let i = 0; i < 16; i += 4) {
    // 16 bits at a time keeps every step inside exact integer arithmetic.
    let diff = Number.parseInt(a.slice(i, i + 4), 16) ^ Number.parseInt(b.slice(i, i + 4), 16);
    while (diff !== 0) {
      diff &= diff - 1;
      distance++;
    }
  }
  return distance;
}
