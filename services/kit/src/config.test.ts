import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, baseConfigSchema, databaseSettings, natsStreamSettings, parseConfig, parseDuration, port, resolveSecret } from './config.js';

describe('parseConfig', () => {
  const schema = z.object({ PORT: port(8080), NAME: z.string().min(1) });

  it('applies defaults and coerces numbers', () => {
    expect(parseConfig(schema, { NAME: 'x' })).toEqual({ PORT: 8080, NAME: 'x' });
    expect(parseConfig(schema, { NAME: 'x', PORT: '9000' }).PORT).toBe(9000);
  });

  it('reports every problem in one line', () => {
    try {
      parseConfig(schema, { PORT: 'eighty' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/^Invalid configuration: PORT: .+; NAME: .+$/);
      expect((error as Error).message).not.toContain('\n');
    }
  });
});

describe('resolveSecret', () => {
  it('requires a real secret in production', () => {
    expect(() => resolveSecret('SESSION_SECRET', undefined, 'production')).toThrow(/SESSION_SECRET: required in production/);
    expect(() => resolveSecret('SESSION_SECRET', 'short', 'production')).toThrow(ConfigError);
  });

  it('generates one stable development secret per name', () => {
    const a = resolveSecret('X_SECRET', undefined, 'development');
    expect(a.length).toBeGreaterThanOrEqual(32);
    expect(resolveSecret('X_SECRET', undefined, 'development')).toBe(a);
    expect(resolveSecret('Y_SECRET', undefined, 'development')).not.toBe(a);
  });
});

describe('the shared production settings', () => {
  it('has defaults for the database, the shutdown and the streams', () => {
    const config = parseConfig(baseConfigSchema, {});
    expect(databaseSettings(config)).toEqual({ poolMax: undefined, connectTimeoutMs: 5_000, statementTimeoutMs: 30_000, directUrl: undefined });
    expect(config.SHUTDOWN_TIMEOUT_MS).toBe(20_000);
    expect(natsStreamSettings(config)).toEqual({
      events: { replicas: 1, storage: 'file', maxAgeMs: 7 * 86_400_000 },
      deadLetters: { replicas: 1, maxAgeMs: 30 * 86_400_000 },
    });
  });

  it('reads them from the environment', () => {
    const config = parseConfig(baseConfigSchema, {
      DATABASE_POOL_MAX: '12',
      DATABASE_CONNECT_TIMEOUT_MS: '2000',
      DATABASE_STATEMENT_TIMEOUT_MS: '0',
      DATABASE_DIRECT_URL: 'postgres://db-direct:5432/snapcracks',
      SHUTDOWN_TIMEOUT_MS: '',
      NATS_STREAM_REPLICAS: '3',
      NATS_STREAM_STORAGE: 'memory',
      NATS_STREAM_MAX_AGE: '36h',
      NATS_DEAD_LETTER_REPLICAS: '3',
      NATS_DEAD_LETTER_MAX_AGE: '0',
    });
    expect(databaseSettings(config)).toEqual({ poolMax: 12, connectTimeoutMs: 2_000, statementTimeoutMs: 0, directUrl: 'postgres://db-direct:5432/snapcracks' });
    expect(config.SHUTDOWN_TIMEOUT_MS).toBe(20_000);
    expect(natsStreamSettings(config)).toEqual({ events: { replicas: 3, storage: 'memory', maxAgeMs: 36 * 3_600_000 }, deadLetters: { replicas: 3, maxAgeMs: 0 } });
  });

  it('says in one line what is wrong', () => {
    const problem = (env: Record<string, string>) => {
      try {
        parseConfig(baseConfigSchema, env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      return expect.unreachable();
    };
    expect(problem({ DATABASE_POOL_MAX: 'ten' })).toMatch(/^Invalid configuration: DATABASE_POOL_MAX: expected a whole number$/);
    expect(problem({ DATABASE_POOL_MAX: '0' })).toMatch(/^Invalid configuration: DATABASE_POOL_MAX: expected a whole number of at least 1$/);
    expect(problem({ NATS_STREAM_MAX_AGE: '7 days' })).toBe('Invalid configuration: NATS_STREAM_MAX_AGE: expected a duration such as 90s, 10m, 1h or 7d (or 0 for none), got "7 days"');
    expect(problem({ NATS_STREAM_STORAGE: 'disk' })).toMatch(/^Invalid configuration: NATS_STREAM_STORAGE: .*"file"\|"memory"/);
    expect(problem({ DATABASE_DIRECT_URL: 'not a url' })).toMatch(/^Invalid configuration: DATABASE_DIRECT_URL: /);
    expect(problem({ SHUTDOWN_TIMEOUT_MS: '10' })).toMatch(/^Invalid configuration: SHUTDOWN_TIMEOUT_MS: /);
  });

  it('reads durations with their unit', () => {
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('10m')).toBe(600_000);
    expect(parseDuration('1h')).toBe(3_600_000);
    expect(parseDuration('7d')).toBe(604_800_000);
    expect(parseDuration('7')).toBeUndefined();
    expect(parseDuration('-1m')).toBeUndefined();
  });
});
