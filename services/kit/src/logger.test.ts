import { afterEach, describe, expect, it } from 'vitest';
import { censorSecrets, createLogger } from './logger.js';

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

describe('secrets in log lines', () => {
  /** What a logger made as the product makes them writes for `record`, parsed. */
  function written(record: Record<string, unknown>, child?: Record<string, unknown>): Record<string, unknown> {
    const lines: string[] = [];
    const logger = createLogger('test', 'info', { pretty: false, destination: { write: (line: string) => void lines.push(line) } });
    (child ? logger.child(child) : logger).info(record, 'something happened');
    return JSON.parse(lines[0]!);
  }

  it('are censored one level down under any key, in copies that leave the caller’s objects as they were', () => {
    const headers = { cookie: 'sid=abc', authorization: 'Bearer xyz', accept: 'text/html' };
    const config = { password: 'hunter2', secret: 's', token: 't', host: 'db' };
    const line = written({ headers, config, userId: 'u1', count: 3 });
    expect(line).toMatchObject({
      headers: { cookie: '[redacted]', authorization: '[redacted]', accept: 'text/html' },
      config: { password: '[redacted]', secret: '[redacted]', token: '[redacted]', host: 'db' },
      userId: 'u1',
      count: 3,
      msg: 'something happened',
    });
    expect(headers.cookie).toBe('sid=abc');
    expect(config.password).toBe('hunter2');
  });

  it('are censored in an error’s own fields, which keeps its message and stack', () => {
    const err = Object.assign(new Error('refused'), { token: 'abc' });
    const line = written({ err }) as { err: { message: string; stack: string; token: string; type: string } };
    expect(line.err).toMatchObject({ message: 'refused', token: '[redacted]', type: 'Error' });
    expect(line.err.stack).toContain('refused');
    expect(err.token).toBe('abc');
  });

  it('are censored in what a child logger logs', () => {
    expect(written({ client: { token: 'abc', id: 'c1' } }, { component: 'vote' })).toMatchObject({ component: 'vote', client: { token: '[redacted]', id: 'c1' } });
  });

  it('leave a record without one as it is: the same object, nothing copied', () => {
    const record = { requestId: 'r1', res: { statusCode: 200 }, tags: ['a'] };
    expect(censorSecrets(record)).toBe(record);
  });
});
