import { describe, expect, it } from 'vitest';
import { loadGatewayConfig } from './config.js';

const trust = (value: string) => loadGatewayConfig({ NODE_ENV: 'test', TRUST_PROXY: value }).TRUST_PROXY;

describe('TRUST_PROXY', () => {
  it('takes off, a hop count, or addresses and ranges', () => {
    expect(loadGatewayConfig({ NODE_ENV: 'test' }).TRUST_PROXY).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('1')).toBe(1);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.0/8, 192.168.1.1,::1')).toEqual(['10.0.0.0/8', '192.168.1.1', '::1']);
  });

  it('refuses "any proxy", which would let a client pick its own address', () => {
    expect(() => trust('true')).toThrow(/TRUST_PROXY/);
    expect(() => trust('everyone')).toThrow(/TRUST_PROXY/);
    expect(() => trust('-1')).toThrow(/TRUST_PROXY/);
  });
});

describe('rate limits', () => {
  it('has the defaults', () => {
    expect(loadGatewayConfig({ NODE_ENV: 'test' }).rateLimits).toEqual({
      api: { max: 600, windowMs: 60_000 },
      signIn: { max: 30, windowMs: 60_000 },
      contact: { max: 5, windowMs: 600_000 },
      uploads: { max: 30, windowMs: 60_000 },
      uploadsInFlight: 2,
      votes: { max: 600, windowMs: 60_000 },
      avatars: { max: 10, windowMs: 60_000 },
      faceSuggestions: { max: 30, windowMs: 60_000 },
      reports: { max: 10, windowMs: 3_600_000 },
    });
  });

  it('takes each as <max>/<window>', () => {
    const limits = loadGatewayConfig({
      NODE_ENV: 'test',
      RATE_LIMIT_API: '100000/1m',
      RATE_LIMIT_SIGN_IN: '10/30s',
      RATE_LIMIT_CONTACT: '3/1h',
      RATE_LIMIT_UPLOADS: ' 20 / 2h ',
      RATE_LIMIT_VOTES: '1200/1m',
      RATE_LIMIT_UPLOADS_IN_FLIGHT: '4',
      RATE_LIMIT_AVATARS: '2/5m',
      RATE_LIMIT_FACE_SUGGESTIONS: '7/10s',
      RATE_LIMIT_REPORTS: '3/1m',
    }).rateLimits;
    expect(limits).toEqual({
      api: { max: 100_000, windowMs: 60_000 },
      signIn: { max: 10, windowMs: 30_000 },
      contact: { max: 3, windowMs: 3_600_000 },
      uploads: { max: 20, windowMs: 7_200_000 },
      uploadsInFlight: 4,
      votes: { max: 1200, windowMs: 60_000 },
      avatars: { max: 2, windowMs: 300_000 },
      faceSuggestions: { max: 7, windowMs: 10_000 },
      reports: { max: 3, windowMs: 60_000 },
    });
  });

  it('takes an empty value as unset: the default', () => {
    const empty = { RATE_LIMIT_API: '', RATE_LIMIT_UPLOADS: '', RATE_LIMIT_UPLOADS_IN_FLIGHT: '', RATE_LIMIT_VOTES: '', RATE_LIMIT_AVATARS: '', RATE_LIMIT_FACE_SUGGESTIONS: '', RATE_LIMIT_REPORTS: '' };
    expect(loadGatewayConfig({ NODE_ENV: 'test', ...empty }).rateLimits).toEqual(loadGatewayConfig({ NODE_ENV: 'test' }).rateLimits);
  });

  it('still reads RATE_LIMIT_PER_MINUTE when RATE_LIMIT_API is unset', () => {
    expect(loadGatewayConfig({ NODE_ENV: 'test', RATE_LIMIT_PER_MINUTE: '8' }).rateLimits.api).toEqual({ max: 8, windowMs: 60_000 });
    expect(loadGatewayConfig({ NODE_ENV: 'test', RATE_LIMIT_PER_MINUTE: '8', RATE_LIMIT_API: '50/1s' }).rateLimits.api).toEqual({ max: 50, windowMs: 1_000 });
  });

  it('says in one line what is wrong with one', () => {
    for (const value of ['600', '600/minute', '0/1m', '10/0m', '-5/1m', '1.5/1m']) {
      expect(() => loadGatewayConfig({ NODE_ENV: 'test', RATE_LIMIT_VOTES: value })).toThrow(
        new RegExp(`^Invalid configuration: RATE_LIMIT_VOTES: expected <max>/<window> with the window in s, m or h \\(e\\.g\\. 600/1m\\), got "${value.replace('.', '\\.')}"$`),
      );
    }
    expect(() => loadGatewayConfig({ NODE_ENV: 'test', REDIS_URL: 'not a url' })).toThrow(/^Invalid configuration: REDIS_URL: /);
  });
});
