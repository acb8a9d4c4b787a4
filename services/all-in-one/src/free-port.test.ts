import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RESERVATION_MS, freePort, reservePort } from './free-port.js';

describe('reservePort', () => {
  const directories: string[] = [];
  const directory = () => {
    const made = mkdtempSync(join(tmpdir(), 'ports-'));
    directories.push(made);
    return made;
  };
  afterEach(() => {
    for (const made of directories.splice(0)) rmSync(made, { recursive: true, force: true });
  });

  it('hands a port out once while its reservation lasts, then again once it is old', () => {
    const at = directory();
    const now = Date.now();
    expect(reservePort(20_001, at, now)).toBe(true);
    expect(reservePort(20_001, at, now + 1_000)).toBe(false);
    expect(reservePort(20_002, at, now + 1_000)).toBe(true);
    expect(reservePort(20_001, at, now + RESERVATION_MS + 1_000)).toBe(true);
    // Taken again: reserved anew from then.
    expect(reservePort(20_001, at, now + RESERVATION_MS + 2_000)).toBe(false);
  });
});

describe('freePort', () => {
  afterEach(() => vi.restoreAllMocks());

  it('does not hand out again a port it has just handed out, though nothing listens on it yet', async () => {
    const draw = Math.random();
    const random = vi.spyOn(Math, 'random').mockReturnValueOnce(draw).mockReturnValueOnce(draw);
    const first = await freePort();
    const second = await freePort();
    expect(random.mock.calls.length).toBeGreaterThanOrEqual(3); // the second caller drew the same port and passed it by
    expect(second).not.toBe(first);
  });
});
