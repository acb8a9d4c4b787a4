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
    expect(a.body).toBe('{"photos":[1,2],"total":2}');
    expect(b).toEqual(a);
    expect(c.etag).toBe(a.etag);
    expect(a.etag).toMatch(/^"[\w-]+"$/);
  });

  it('forgets everything on an event, and once more when events have settled', async () => {
    vi.useFakeTimers();
    const cache = new PublicPageCache({ settleMs: 300 });
    let version = 1;
    const load = vi.fn(async () => ({ version }));
    expect((await cache.get('k', load)).body).toBe('{"version":1}');
    cache.invalidate();
    // Loaded right after the event, before the read model caught up: still the old figure.
    expect((await cache.get('k', load)).body).toBe('{"version":1}');
    version = 2;
    vi.advanceTimersByTime(200);
    cache.invalidate(); // another event restarts the settle delay
    expect((await cache.get('k', load)).body).toBe('{"version":2}');
    version = 3;
    vi.advanceTimersByTime(299);
    expect((await cache.get('k', load)).body).toBe('{"version":2}');
    vi.advanceTimersByTime(1);
    expect((await cache.get('k', load)).body).toBe('{"version":3}');
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
    expect((await cache.get('k', load)).body).toBe('{"version":2}');
    vi.advanceTimersByTime(50);
    cache.invalidate(); // 50 ms later: waits for the interval
    version = 3;
    expect((await cache.get('k', load)).body).toBe('{"version":2}');
    vi.advanceTimersByTime(49);
    expect((await cache.get('k', load)).body).toBe('{"version":2}');
    vi.advanceTimersByTime(1);
    expect((await cache.get('k', load)).body).toBe('{"version":3}');
    version = 4;
    vi.advanceTimersByTime(249); // 299 ms after the last event
    expect((await cache.get('k', load)).body).toBe('{"version":3}');
    vi.advanceTimersByTime(1);
    expect((await cache.get('k', load)).body).toBe('{"version":4}');

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
    expect((await first).body).toBe('{"stale":true}');
    expect((await cache.get('k', async () => ({ fresh: true }))).body).toBe('{"fresh":true}');
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
    expect((await cache.get('a', load)).body).toBe('{"now":1000}');
    await cache.get('b', load);
    await cache.get('c', load); // full: starts over
    await cache.get('b', load);
    expect(load).toHaveBeenCalledTimes(5);
  });

  it('does not keep a failed load', async () => {
    const cache = new PublicPageCache();
    await expect(cache.get('k', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect((await cache.get('k', async () => ({ ok: true }))).body).toBe('{"ok":true}');
  });
});
