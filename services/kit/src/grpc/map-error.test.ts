import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { createRecordingLogger } from '../testing/recording-logger.js';
import { mapError } from './server.js';

describe('mapError', () => {
  it('answers UNAVAILABLE, not INTERNAL, while the database restarts or refuses connections (callers say try again)', () => {
    const { logger, records } = createRecordingLogger();
    for (const code of ['57P01', '57P03', 'P1001', 'ECONNREFUSED']) {
      const error = Object.assign(new Error('terminating connection due to administrator command'), { code });
      expect(mapError(error, logger, '/snapcracks.support.v1.SupportService/SubmitContactForm')).toEqual({ code: status.UNAVAILABLE, details: 'Service temporarily unavailable' });
    }
    expect(records.every((record) => record.level < 50)).toBe(true);
  });

  it('keeps anything else INTERNAL, its details only in the log', () => {
    const { logger, records } = createRecordingLogger();
    expect(mapError(new TypeError('x is undefined'), logger, '/p')).toEqual({ code: status.INTERNAL, details: 'Internal error' });
    expect(records.some((record) => record.level >= 50)).toBe(true);
  });
});
