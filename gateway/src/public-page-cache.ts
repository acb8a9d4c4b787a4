import { createHash } from 'node:crypto';
import { instruments, type Subscription } from '@snapcracks/kit';
import type { EventSource } from './gateway-events.js';

const HIT = { component: 'gateway', result: 'hit' };
const MISS = { component: 'gateway', result: 'miss' };

/** A public answer as it goes out: serialized and encoded once, with its ETag. */
export interface CachedPage {
  body: Buffer;
  etag: string;
}

export interface PublicPageCacheOptions {
  /** The longest an entry is kept, whatever the events say: bounds staleness if an event is ever lost. */
  ttlMs?: number;
  maxEntries?: number;
  /**
   * After an event, the cache is cleared again this long after it: the gateway hears an event at the same time as
   * the services whose read models it changes, so a page loaded in between may predate their update.
   */
  settleMs?: number;
  /**
   * Events closer together than this clear the cache once, and once more when the interval is over: under a burst of
   * votes pages stay cached for this long instead of never, a vote shows within this interval plus `settleMs`.
   */
  coalesceMs?: number;
  now?: () => number;
}

/** Events after which a public page may read differently: photos, votes, uploaders' names. */
export const PUBLIC_PAGE_EVENTS = ['photo.>', 'vote.vote.cast', 'auth.user.updated', 'auth.user.deleted'];

/**
 * Identical public answers (gallery pages of everyone's filters, previews, the stats strip) kept in memory, so a
 * busy gallery costs one backend call per page per change rather than one per request. Every gateway replica
 * listens for changes on the bus (broadcast) and drops everything on any of them; concurrent misses of one key
 * share one load, and a load that overlaps a change is answered but not kept.
 */
export class PublicPageCache {
  private readonly entries = new Map<string, CachedPage & { at: number }>();
  private readonly loading = new Map<string, Promise<CachedPage>>();
  /**
   * Request URLs a route answered with a kept page, that page's key (see `atUrl`), and the UTC midnight after the key was
   * named: the new-* pages' keys name their day, so from then on the URL may mean another key.
   */
  private readonly urls = new Map<string, { key: string; until: number }>();
  private generation = 0;
  private settleTimer: NodeJS.Timeout | undefined;
  private coalesceTimer: NodeJS.Timeout | undefined;
  private lastClearAt = Number.NEGATIVE_INFINITY;
  private subscription: Subscription | undefined;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly settleMs: number;
  private readonly coalesceMs: number;
  private readonly now: () => number;

  constructor(options: PublicPageCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? 30_000;
    this.maxEntries = options.maxEntries ?? 5_000;
    this.settleMs = options.settleMs ?? 300;
    this.coalesceMs = options.coalesceMs ?? 100;
    this.now = options.now ?? Date.now;
  }

  async listen(bus: EventSource): Promise<void> {
    this.subscription = await bus.subscribe(async () => this.invalidate(), { types: PUBLIC_PAGE_EVENTS });
  }

  /**
   * The page kept under `key`, or loaded once for every concurrent caller. `url`, the request's own URL, is remembered
   * with the key while the page is kept, so the next request for that same URL is answered by `atUrl`.
   */
  async get(key: string, load: () => Promise<unknown>, url?: string): Promise<CachedPage> {
    const asked = this.now();
    const hit = this.entries.get(key);
    if (hit && asked - hit.at < this.ttlMs) {
      instruments().publicPageCache.add(1, HIT);
      if (url !== undefined) this.rememberUrl(url, key, asked);
      return hit;
    }
    // Joining a load already under way costs no backend call of its own: a hit.
    const pending = this.loading.get(key);
    if (pending) {
      instruments().publicPageCache.add(1, HIT);
      return pending;
    }
    instruments().publicPageCache.add(1, MISS);
    const generation = this.generation;
    const promise = load()
      .then((value) => {
        const body = Buffer.from(JSON.stringify(value));
        const page = { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
        if (generation === this.generation) {
          if (this.entries.size >= this.maxEntries) this.entries.clear();
          this.entries.set(key, { ...page, at: this.now() });
          if (url !== undefined) this.rememberUrl(url, key, asked);
        }
        return page;
      })
      .finally(() => {
        if (this.loading.get(key) === promise) this.loading.delete(key);
      });
    this.loading.set(key, promise);
    return promise;
  }

  /**
   * The page kept for a request URL that a route answered from this cache before, while the page is kept: the same URL
   * passes the same validation and names the same key, so the front of the gateway can answer it without the route
   * (shared-page-hits.ts). Undefined for any other URL, after a change, and from midnight UTC on.
   */
  atUrl(url: string): CachedPage | undefined {
    const known = this.urls.get(url);
    if (known === undefined) return undefined;
    const now = this.now();
    if (now >= known.until) return undefined;
    const hit = this.entries.get(known.key);
    if (!hit || now - hit.at >= this.ttlMs) return undefined;
    instruments().publicPageCache.add(1, HIT);
    return hit;
  }

  /**
   * Forgets every page now (or, within coalesceMs of the last time, when that interval is over), and once more when no
   * event has come for the settle delay.
   */
  invalidate(): void {
    const sinceLastClear = this.now() - this.lastClearAt;
    if (sinceLastClear >= this.coalesceMs) this.clear();
    else this.coalesceTimer ??= this.timer(() => {
      this.coalesceTimer = undefined;
      this.clear();
    }, this.coalesceMs - sinceLastClear);
    if (this.settleTimer) {
      this.settleTimer.refresh();
      return;
    }
    this.settleTimer = this.timer(() => {
      this.settleTimer = undefined;
      this.clear();
    }, this.settleMs);
  }

  async close(): Promise<void> {
    if (this.settleTimer) clearTimeout(this.settleTimer);
    if (this.coalesceTimer) clearTimeout(this.coalesceTimer);
    await this.subscription?.close();
  }

  private timer(run: () => void, ms: number): NodeJS.Timeout {
    const timer = setTimeout(run, ms);
    timer.unref();
    return timer;
  }

  private rememberUrl(url: string, key: string, asked: number): void {
    if (this.urls.size >= this.maxEntries && !this.urls.has(url)) this.urls.clear();
    this.urls.set(url, { key, until: nextUtcMidnight(asked) });
  }

  private clear(): void {
    this.lastClearAt = this.now();
    this.generation += 1;
    this.entries.clear();
    this.urls.clear();
    // Loads in flight keep running for those waiting on them, but new requests start fresh ones.
    this.loading.clear();
  }
}

function nextUtcMidnight(now: number): number {
  const day = new Date(now);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + 1);
}
