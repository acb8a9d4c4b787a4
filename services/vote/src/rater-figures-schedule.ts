import type { Logger } from '@snapcracks/kit';
import type { RatersRepository } from './raters.repository.js';

/** Node's longest timer (about 24.8 days); a longer one would fire at once. A tick that comes early finds the figures fresh. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Keeps the Raters page's figures about one `intervalMs` old at most, whatever the replicas and restarts: the first
 * refresh comes when the stored figures fall due (at once when there are none), then one every interval. Computing
 * them reads every vote (seconds of a database core at a million votes), so a replica leaves figures computed within
 * the last half interval as they are: a restart, or a second replica on its own clock, does not compute them again.
 * With an interval of 0, they are computed once at start.
 */
export function scheduleRaterFigures(raters: Pick<RatersRepository, 'refreshAll' | 'computedAt'>, intervalMs: number, logger: Logger): { stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const refresh = async () => {
    const voters = await raters
      .refreshAll(intervalMs > 0 ? { unlessComputedWithinMs: intervalMs / 2 } : {})
      .catch((error: unknown) => void logger.warn({ err: error }, 'could not compute the rater figures'));
    if (voters) logger.info({ voters }, 'rater figures computed');
  };
  const after = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => void refresh().finally(() => after(intervalMs)), Math.min(delayMs, MAX_TIMER_MS));
    timer.unref();
  };

  if (intervalMs > 0) {
    void raters.computedAt().then(
      (at) => after(at ? Math.min(intervalMs, Math.max(0, at.getTime() + intervalMs - Date.now())) : 0),
      () => after(0),
    );
  } else {
    void refresh();
  }
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
