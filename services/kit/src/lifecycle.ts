import type { Logger } from './logger.js';

type Step = { name: string; run: () => Promise<void> };

/**
 * Ordered shutdown: steps run in reverse order of registration (stop accepting, drain, then close the bus
 * and the database), each bounded by a timeout so one stuck step cannot hold the process forever.
 */
export class Lifecycle {
  private readonly steps: Step[] = [];
  private stopping: Promise<void> | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly stepTimeoutMs = 15_000,
  ) {}

  onStop(name: string, run: () => Promise<void> | void): void {
    this.steps.push({ name, run: async () => run() });
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      for (const step of [...this.steps].reverse()) {
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([
            step.run(),
            new Promise((_, reject) => {
              timer = setTimeout(() => reject(new Error('timed out')), this.stepTimeoutMs);
            }),
          ]);
        } catch (error) {
          this.logger.warn({ err: error, step: step.name }, 'shutdown step failed');
        } finally {
          clearTimeout(timer);
        }
      }
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
