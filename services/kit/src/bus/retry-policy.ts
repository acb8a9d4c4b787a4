/** Exponential backoff: the first retry waits `initialDelayMs`, each next one twice as long, up to `maxDelayMs`. */
export interface Backoff {
  initialDelayMs: number;
  maxDelayMs: number;
}

/** How a bus redelivers an event whose handler threw. */
export interface RetryPolicy extends Backoff {
  /**
   * Deliveries before the bus gives up on an event and moves it to the dead letters (logged as one error); bounded so
   * one poison event cannot retry forever.
   */
  maxDeliveries: number;
}

export const defaultRetryPolicy: RetryPolicy = { maxDeliveries: 20, initialDelayMs: 1_000, maxDelayMs: 60_000 };

/** The wait after the `attempt`-th consecutive failure (1-based). */
export function backoffDelayMs(attempt: number, { initialDelayMs, maxDelayMs }: Backoff): number {
  return Math.min(initialDelayMs * 2 ** Math.max(0, attempt - 1), maxDelayMs);
}
