import { describe, expect, it } from 'vitest';
import { Readiness } from './readiness.js';

describe('Readiness', () => {
  it('answers a probe storm with one database query a second', async () => {
    let now = 0;
    let queries = 0;
    const readiness = new Readiness({ isDraining: () => false, pingDatabase: async () => void queries++, now: () => now });
    expect(await Promise.all(Array.from({ length: 100 }, () => readiness.ready()))).toEqual(Array.from({ length: 100 }, () => true));
    now = 500;
    for (let i = 0; i < 50; i++) expect(await readiness.ready()).toBe(true);
    expect(queries).toBe(1);
    now = 1_000;
    expect(await readiness.ready()).toBe(true);
    expect(queries).toBe(2);
  });

  it('is not ready while the database does not answer, and ready again once it does', async () => {
    let now = 0;
    let up = false;
    const readiness = new Readiness({ isDraining: () => false, pingDatabase: async () => {
      if (!up) throw new Error('connection refused');
    }, now: () => now });
    expect(await readiness.ready()).toBe(false);
    up = true;
    expect(await readiness.ready()).toBe(false);
    now = 1_000;
    expect(await readiness.ready()).toBe(true);
  });

  it('stops being ready the moment it drains, whatever it remembers of the database', async () => {
    let draining = false;
    const readiness = new Readiness({ isDraining: () => draining, pingDatabase: async () => undefined });
    expect(await readiness.ready()).toBe(true);
    draining = true;
    expect(await readiness.ready()).toBe(false);
    expect(await readiness.detail()).toEqual({ status: 'not ready', database: 'ok', services: {}, draining: true });
  });
});
