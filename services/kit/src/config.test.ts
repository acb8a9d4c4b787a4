import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, parseConfig, port, resolveSecret } from './config.js';

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
