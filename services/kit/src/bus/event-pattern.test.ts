import { describe, expect, it } from 'vitest';
import { assertEventTypePattern, matchesEventType } from './event-pattern.js';

describe('matchesEventType', () => {
  it.each([
    ['photo.photo.uploaded', 'photo.photo.uploaded', true],
    ['photo.photo.uploaded', 'photo.photo.updated', false],
    ['photo.*.uploaded', 'photo.photo.uploaded', true],
    ['photo.*', 'photo.photo.uploaded', false],
    ['photo.>', 'photo.photo.uploaded', true],
    ['photo.>', 'photo', false],
    ['>', 'vote.vote.cast', true],
    ['vote.vote', 'vote.vote.cast', false],
  ])('%s against %s is %s', (pattern, type, expected) => {
    expect(matchesEventType(pattern, type)).toBe(expected);
  });
});

describe('assertEventTypePattern', () => {
  it('accepts types and NATS wildcards', () => {
    for (const pattern of ['auth.user.updated', 'photo.*.deleted', 'photo.>']) expect(() => assertEventTypePattern(pattern)).not.toThrow();
  });

  it('rejects what is not a subject pattern over event types', () => {
    for (const pattern of ['', 'photo..uploaded', 'photo.>.uploaded', 'Photo.uploaded', 'photo uploaded']) {
      expect(() => assertEventTypePattern(pattern)).toThrow(/Invalid event type pattern/);
    }
  });
});
