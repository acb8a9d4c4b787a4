import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

describe('log lines', () => {
  const saved = process.env.SNAPCRACKS_VERSION;
  afterEach(() => {
    if (saved === undefined) delete process.env.SNAPCRACKS_VERSION;
    else process.env.SNAPCRACKS_VERSION = saved;
  });

  it('carry the running version, so a line says which release wrote it', () => {
    process.env.SNAPCRACKS_VERSION = '1.4.2+abc1234';
    expect(createLogger('vote', 'info', { pretty: false }).bindings()).toMatchObject({ version: '1.4.2+abc1234' });
  });
});
