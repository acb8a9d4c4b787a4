import { describe, expect, it } from 'vitest';
import { startEnvironment } from './start-env.mjs';

describe('the environment pnpm start and pnpm dev run the product with', () => {
  it('listens on loopback only when HOST is not set', () => {
    expect(startEnvironment({}, { dev: false }).HOST).toBe('127.0.0.1');
    expect(startEnvironment({ HOST: '' }, { dev: true }).HOST).toBe('127.0.0.1');
    expect(startEnvironment({ NODE_ENV: 'development' }, { dev: true }).HOST).toBe('127.0.0.1');
  });

  it('keeps the HOST the user set, e.g. every interface on purpose', () => {
    expect(startEnvironment({ HOST: '0.0.0.0' }, { dev: true }).HOST).toBe('0.0.0.0');
    expect(startEnvironment({ HOST: '192.168.1.20' }, { dev: false }).HOST).toBe('192.168.1.20');
  });

  it('leaves production to the gateway’s own default', () => {
    expect(startEnvironment({ NODE_ENV: 'production' }, { dev: false })).not.toHaveProperty('HOST');
  });

  it('sets MALLOC_ARENA_MAX unless set, and WEB_DEV with --dev', () => {
    expect(startEnvironment({}, { dev: true })).toMatchObject({ MALLOC_ARENA_MAX: '2', WEB_DEV: 'true' });
    expect(startEnvironment({ MALLOC_ARENA_MAX: '4' }, { dev: false })).toEqual({ MALLOC_ARENA_MAX: '4', HOST: '127.0.0.1' });
  });
});
