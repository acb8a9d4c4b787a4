import { Redis } from 'ioredis';
import type { Logger } from '@snapcracks/kit';

/**
 * The Redis client the rate limits count in (REDIS_URL). Built to fail fast rather than wait: a command while Redis is
 * unreachable fails at once (no offline queue, one try), and the limiter then lets the request through
 * (skipOnError), so Redis being down never takes the site down. The outage is logged once, and its end once.
 */
export function openRateLimitRedis(url: string, logger: Logger): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 1_000,
    commandTimeout: 500,
    // Keep trying, at most every 5 s.
    retryStrategy: (times) => Math.min(times * 200, 5_000),
  });
  let down = false;
  redis.on('error', (error: Error) => {
    if (down) return;
    down = true;
    logger.warn({ err: error }, 'rate limits: Redis is unreachable; requests are not limited until it answers again');
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    logger.info('rate limits: Redis answers again');
  });
  return redis;
}
