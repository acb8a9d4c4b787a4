import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, formatCountOf, formatDate, formatDateTime, formatDay, formatDuration, formatPercent, formatRating, formatRelativeTime, formatTime, formatVoteCount } from './format';

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

describe('formatCountOf and formatVoteCount', () => {
  it('says the singular for exactly one, with the count grouped', () => {
    expect(formatVoteCount(1)).toBe('1 vote');
    expect(formatVoteCount(0)).toBe('0 votes');
    expect(formatVoteCount(1234)).toBe('1,234 votes');
    expect(formatCountOf(1200, 'byte')).toBe('1,200 bytes');
    expect(formatCountOf(2, 'person', 'people')).toBe('2 people');
    expect(formatCountOf(1, 'privacy bar')).toBe('1 privacy bar');
  });
});

describe('formatRating', () => {
  it('shows one decimal (SPEC §9), a missing rating as 0.0', () => {
    expect(formatRating(4)).toBe('4.0');
    expect(formatRating(4.25)).toBe('4.3');
    expect(formatRating(3.04)).toBe('3.0');
    expect(formatRating(undefined)).toBe('0.0');
    expect(formatRating(Number.NaN)).toBe('0.0');
  });
});

describe('formatPercent', () => {
  it('rounds to a whole percentage', () => {
    expect(formatPercent(83.4)).toBe('83%');
    expect(formatPercent(0)).toBe('0%');
  });
});

describe('dates', () => {
  // Noon UTC is the same calendar day in every time zone a test machine is likely to use.
  const NOON = '2025-07-28T12:00:00.000Z';

  it('writes a date as "Jul 28, 2025" and a date and time with the time after it', () => {
    expect(formatDate(NOON)).toBe('Jul 28, 2025');
    expect(formatDate(Date.parse(NOON))).toBe('Jul 28, 2025');
    expect(formatDateTime(NOON)).toMatch(/^Jul 28, 2025, \d{1,2}:\d{2}\s[AP]M$/);
  });

  it.each([null, undefined, '', 'not a date'])('gives null for %j', (timestamp) => {
    expect(formatDate(timestamp)).toBeNull();
    expect(formatDateTime(timestamp)).toBeNull();
    expect(formatRelativeTime(timestamp)).toBeNull();
  });
});

describe('formatRelativeTime', () => {
  const NOW = Date.parse('2026-03-10T12:00:00.000Z');
  const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

  it.each([
    [ago(0), 'just now'],
    [ago(59), 'just now'],
    [ago(60), '1 minute ago'],
    [ago(5 * 60 + 30), '5 minutes ago'],
    [ago(60 * 60), '1 hour ago'],
    [ago(3 * 60 * 60), '3 hours ago'],
    [ago(24 * 60 * 60), 'yesterday'],
    [ago(3 * 24 * 60 * 60), '3 days ago'],
    [ago(14 * 24 * 60 * 60), '2 weeks ago'],
    [ago(65 * 24 * 60 * 60), '2 months ago'],
    [ago(400 * 24 * 60 * 60), 'last year'],
    [new Date(NOW + 5000).toISOString(), 'just now'],
  ])('says %s is "%s"', (timestamp, expected) => {
    expect(formatRelativeTime(timestamp, NOW)).toBe(expected);
  });
});

describe('formatDuration', () => {
  it.each([
    [45, '45 s'],
    [44.6, '45 s'],
    [0, '0 s'],
    [60, '1 min'],
    [12 * 60 + 5, '12 min 5 s'],
    [3 * 3600 + 12 * 60 + 40, '3 h 12 min'],
    [3 * 3600 + 40, '3 h'],
    [2 * 86400 + 4 * 3600, '2 d 4 h'],
    [2 * 86400 + 30 * 60, '2 d'],
    [null, '—'],
    [undefined, '—'],
    [Number.NaN, '—'],
  ])('writes %j seconds as "%s"', (seconds, expected) => {
    expect(formatDuration(seconds)).toBe(expected);
  });
});

describe('formatDay and formatTime', () => {
  it('writes a UTC day as "Jul 28" wherever the viewer is, and a time of day alone', () => {
    expect(formatDay('2025-07-28')).toBe('Jul 28');
    expect(formatDay('2025-01-01')).toBe('Jan 1');
    expect(formatDay('not a day')).toBe('not a day');
    expect(formatTime('2025-07-28T12:00:00.000Z')).toMatch(/^\d{1,2}:\d{2}\s[AP]M$/);
    expect(formatTime(null)).toBeNull();
  });
});

describe('formatBytes', () => {
  it('writes a size in powers of 1,000, one decimal below 10', () => {
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(950)).toBe('950 bytes');
    expect(formatBytes(1000)).toBe('1 KB');
    expect(formatBytes(1_234_567)).toBe('1.2 MB');
    expect(formatBytes(12_345_678)).toBe('12 MB');
    expect(formatBytes(1_500_000_000)).toBe('1.5 GB');
    expect(formatBytes(null)).toBe('0 bytes');
  });
});
