import { describe, expect, it } from 'vitest';
import { requestLogFields } from './log-serializers.js';

describe('requestLogFields', () => {
  it('keeps the path and drops the query string', () => {
    expect(requestLogFields({ method: 'GET', url: '/api/callback?code=one-time-secret&state=s', ip: '10.0.0.1' })).toEqual({
      method: 'GET',
      path: '/api/callback',
      ip: '10.0.0.1',
    });
  });
});
