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
