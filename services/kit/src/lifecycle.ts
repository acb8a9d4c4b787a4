import type { Logger } from './logger.js';

type Step = { name: string; run: () => Promise<void> };

export interface LifecycleOptions {
  /** The whole stop, every step included (SHUTDOWN_TIMEOUT_MS): inside the platform's grace period. */
  deadlineMs?: number;
  /**
   * Kept for each step still to come, so that a stuck early step (a drain) leaves the last ones (the bus, telemetry)
   * time to close; by default a tenth of the deadline, at most 1 s.
   */
  reservedPerStepMs?: number;
}

export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 20_000;

/**
 * Ordered shutdown: steps run in reverse order of registration (stop accepting, drain, then close the bus and the
 * database) within one overall deadline. Each step gets the time that remains less a small slice kept for every step
 * after it; one that overruns is logged and left behind, so a stuck step cannot hold the process past the deadline.
 */
export class Lifecycle {
  private readonly steps: Step[] = [];
  private stopping: Promise<void> | undefined;
  private readonly deadlineMs: number;
  private readonly reservedPerStepMs: number;

  constructor(
    private readonly logger: Logger,
    options: LifecycleOptions = {},
  ) {
    this.deadlineMs = options.deadlineMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
    this.reservedPerStepMs = options.reservedPerStepMs ?? Math.min(1_000, Math.floor(this.deadlineMs / 10));
  }

  onStop(name: string, run: () => Promise<void> | void): void {
    this.steps.push({ name, run: async () => run() });
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      const started = Date.now();
      const deadline = started + this.deadlineMs;
      const steps = [...this.steps].reverse();
      for (const [index, step] of steps.entries()) {
        const remaining = Math.max(0, deadline - Date.now());
        const later = steps.length - 1 - index;
        const budget = Math.max(remaining - later * this.reservedPerStepMs, Math.min(this.reservedPerStepMs, remaining));
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([
            step.run(),
            new Promise((_, reject) => {
              timer = setTimeout(() => reject(new Error(`timed out after ${budget} ms`)), budget);
            }),
          ]);
        } catch (error) {
          this.logger.warn({ err: error, step: step.name }, 'shutdown step failed');
        } finally {
          clearTimeout(timer);
        }
      }
      this.logger.info({ ms: Date.now() - started }, 'stopped');
    })();
    return this.stopping;
  }

  /** SIGTERM, SIGINT or SIGHUP (the terminal went away) stops cleanly and exits 0; a second signal exits at once. */
  stopOnSignals(exit: (code: number) => void = (code) => process.exit(code)): void {
    const onSignal = (signal: NodeJS.Signals) => {
      if (this.stopping) {
        this.logger.warn({ signal }, 'second signal, exiting now');
        exit(1);
        return;
      }
      this.logger.info({ signal }, 'shutting down');
      void this.stop().then(() => exit(0));
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
    process.on('SIGHUP', onSignal);
  }
}
