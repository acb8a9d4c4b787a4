import { describe, expect, it } from 'vitest';
import { formatRelativeTime } from './relative-time';

const NOW = Date.parse('2026-03-10T12:00:00.000Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

describe('formatRelativeTime', () => {
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

  it.each([null, undefined, '', 'not a date'])('gives null for %j', (timestamp) => {
    expect(formatRelativeTime(timestamp, NOW)).toBeNull();
  });
});
