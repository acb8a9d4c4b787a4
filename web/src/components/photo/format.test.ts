import { describe, expect, it } from 'vitest';
import { formatCount, formatVoteCount } from './format';

describe('formatCount', () => {
  it('groups thousands exactly as en-US does', () => {
    for (const value of [0, 7, 999, 1000, 1234, 99_999, 100_000, 1_234_567, 2_147_483_647, -1234]) {
      expect(formatCount(value)).toBe(value.toLocaleString('en-US'));
    }
  });

  it('reads a missing or invalid count as 0 and drops fractions', () => {
    expect(formatCount(undefined)).toBe('0');
    expect(formatCount(null)).toBe('0');
    expect(formatCount(Number.NaN)).toBe('0');
    expect(formatCount(1234.9)).toBe('1,234');
  });
});

describe('formatVoteCount', () => {
  it('says vote for one and votes otherwise', () => {
    expect(formatVoteCount(1)).toBe('1 vote');
    expect(formatVoteCount(0)).toBe('0 votes');
    expect(formatVoteCount(1500)).toBe('1,500 votes');
  });
});
