import { describe, expect, it } from 'vitest';
import { DHASH_HEIGHT, DHASH_WIDTH, dHash, hammingDistance } from './dhash.js';

describe('dHash', () => {
  it('sets a bit where brightness rises to the right', () => {
    const rising = Uint8Array.from({ length: DHASH_WIDTH * DHASH_HEIGHT }, (_, i) => (i % DHASH_WIDTH) * 10);
    expect(dHash(rising)).toBe('ffffffffffffffff');
    expect(dHash(new Uint8Array(DHASH_WIDTH * DHASH_HEIGHT))).toBe('0000000000000000');
  });

  it('needs exactly 9×8 pixels', () => {
    expect(() => dHash(new Uint8Array(64))).toThrow(RangeError);
  });
});

describe('hammingDistance', () => {
  it('counts differing bits', () => {
    expect(hammingDistance('0000000000000000', '0000000000000000')).toBe(0);
    expect(hammingDistance('0000000000000000', 'ffffffffffffffff')).toBe(64);
    expect(hammingDistance('8000000000000001', '0000000000000000')).toBe(2);
    expect(hammingDistance('ABCDEF0123456789', 'abcdef0123456789')).toBe(0);
  });

  it('refuses anything but 16 hex digits', () => {
    expect(() => hammingDistance('abc', '0000000000000000')).toThrow(TypeError);
    expect(() => hammingDistance('000000000000000g', '0000000000000000')).toThrow(TypeError);
  });
});
