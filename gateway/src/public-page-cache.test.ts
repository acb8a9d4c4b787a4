import { afterEach, describe, expect, it, vi } from 'vitest';
import { PublicPageCache } from './public-page-cache.js';

afterEach(() => {
  vi.useRealTimers();
});

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('the public page cache', () => {
  it('loads a page once for concurrent requests and serves it serialized with a stable ETag', async () => {
    const cache = new PublicPageCache();
    const load = vi.fn(async () => ({ photos: [1, 2], total: 2 }));
    const [a, b] = await Promise.all([cache.get('k', load), cache.get('k', load)]);
    const c = await cache.get('k', load);
    expect(load).toHaveBeenCalledTimes(1);
    expect(a.body.toString()).toBe('{"photos":[1,2],"total":2}');
    expect(b).toEqual(a);
    expect(c.etag).toBe(a.etag);
    expect(a.etag).toMatch(/^"[\w-]+"$/);
  });

  it('forgets everything on an event, and once more when events have settled', async () => {
    vi.useFakeTimers();
    const cache = new PublicPageCache({ settleMs: 300 });
    let version = 1;
    const load = vi.fn(async () => ({ version }));
    expect((await cache.get('k', load)).body.toString()).toBe('{"version":1}');
    cache.invalidate();
    // Loaded right after the event, before the read model caught up: still the old figure.
    expect((await cache.get('k', load)).body.toString()).toBe('{"version":1}');
    version = 2;
    vi.advanceTimersByTime(200);
    cache.invalidate(); // another event restarts the settle delay
    expect((await cache.get('k', load)).body.toString()).toBe('{"version":2}');
    version = 3;
    vi.advanceTimersByTime(299);
    expect((await cache.get('k', load)).body.toString()).toBe('{"version":2}');
    vi.advanceTimersByTime(1);
    expect((await cache.get('k', load)).body.toString()).toBe('{"version":3}');
    await cache.close();
  });

  it('clears at most once per coalescing interval during a burst of events, and once more when it is over', async () => {
    vi.useFakeTimers();
    const cache = new PublicPageCache({ settleMs: 300, coalesceMs: 100 });
    let version = 1;
    const load = vi.fn(async () => ({ version }));
    await cache.get('k', load);
    cache.invalidate(); // the first event clears at once
    version = 2;
    expect((await cache.get('k', load)).body.toString()).toBe('{"version":2}');
    vi.advanceTimersByTime(50);
    cache.invalidate(); // 50 ms later: waits for the interval
    version = 3;
    expect((await cache.get('k', load)).body.toString()).toBe('{"version":2}');
    vi.advanceTimersByTime(49);
    expect((await cache.get('k', load)).body.toString()).toBe('{"version":2}');
    vi.advanceTimersByTime(1);
    expect((await cache.get('k', load)).body.toString()).toBe('{"version":3}');
    version = 4;
    vi.advanceTimersByTime(249); // 299 ms after the last event
    expect((await cache.get('k', load)).body.toString()).toBe('{"version":3}');
    vi.advanceTimersByTime(1);
    expect((await cache.get('k', load)).body.toString()).toBe('{"version":4}');

    // A second of events every millisecond, each followed by a request: a load per interval, not per request.
    load.mockClear();
    for (let ms = 0; ms < 1000; ms++) {
      cache.invalidate();
      await cache.get('k', load);
      vi.advanceTimersByTime(1);
    }
    expect(load.mock.calls.length).toBeLessThanOrEqual(11);
    await cache.close();
  });

  it('answers a load that overlapped a change but does not keep it', async () => {
    const cache = new PublicPageCache();
    const slow = deferred<object>();
    const first = cache.get('k', () => slow.promise);
    cache.invalidate();
    slow.resolve({ stale: true });
    expect((await first).body.toString()).toBe('{"stale":true}');
    expect((await cache.get('k', async () => ({ fresh: true }))).body.toString()).toBe('{"fresh":true}');
    await cache.close();
  });

  it('keeps an entry no longer than its TTL, and caps the number of entries', async () => {
    let now = 0;
    const cache = new PublicPageCache({ ttlMs: 1000, maxEntries: 2, now: () => now });
    const load = vi.fn(async () => ({ now }));
    await cache.get('a', load);
    now = 999;
    await cache.get('a', load);
    expect(load).toHaveBeenCalledTimes(1);
    now = 1000;
    expect((await cache.get('a', load)).body.toString()).toBe('{"now":1000}');
    await cache.get('b', load);
    await cache.get('c', load); // full: starts over
    await cache.get('b', load);
    expect(load).toHaveBeenCalledTimes(5);
  });

  it('does not keep a failed load', async () => {
    const cache = new PublicPageCache();
    await expect(cache.get('k', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect((await cache.get('k', async () => ({ ok: true }))).body.toString()).toBe('{"ok":true}');
  });

  describe('pages by the URL a route answered', () => {
    it('answers a URL after a route answered it from the cache, and forgets it with the pages and after the TTL', async () => {
      let now = Date.UTC(2026, 10, 29, 12);
      const cache = new PublicPageCache({ ttlMs: 1000, now: () => now });
      expect(cache.atUrl('/a?page=1')).toBeUndefined();
      const page = await cache.get('a:1', async () => ({ a: 1 }), '/a?page=1');
      expect(cache.atUrl('/a?page=1')).toBe(await cache.get('a:1', async () => ({ a: 2 })));
      expect(cache.atUrl('/a?page=1')?.body).toEqual(page.body);
      expect(cache.atUrl('/a?page=2')).toBeUndefined();
      cache.invalidate();
      expect(cache.atUrl('/a?page=1')).toBeUndefined();
      await cache.get('a:1', async () => ({ a: 3 }), '/a?page=1');
      now += 1000;
      expect(cache.atUrl('/a?page=1')).toBeUndefined();
      await cache.close();
    });

    it('forgets a URL at the midnight after its key was named, even for a page loaded after it', async () => {
      let now = Date.UTC(2026, 10, 29, 23, 59, 59, 900);
      const cache = new PublicPageCache({ now: () => now });
      const slow = deferred<unknown>();
      const loading = cache.get('new-today:2026-11-29', () => slow.promise, '/new-today');
      now = Date.UTC(2026, 10, 30, 0, 0, 0, 100);
      slow.resolve({ day: 29 });
      await loading;
      expect(cache.atUrl('/new-today')).toBeUndefined();
      await cache.get('new-today:2026-11-30', async () => ({ day: 30 }), '/new-today');
      expect(cache.atUrl('/new-today')?.body.toString()).toBe('{"day":30}');
      now = Date.UTC(2026, 11, 1);
      expect(cache.atUrl('/new-today')).toBeUndefined();
    });

    it('keeps no more URLs than pages', async () => {
      const cache = new PublicPageCache({ maxEntries: 2 });
      await cache.get('k', async () => ({}), '/1');
      await cache.get('k', async () => ({}), '/2');
      await cache.get('k', async () => ({}), '/3'); // full: starts over
      expect([cache.atUrl('/1'), cache.atUrl('/2'), cache.atUrl('/3')].map(Boolean)).toEqual([false, false, true]);
    });
  });
});
