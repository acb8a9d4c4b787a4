import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Three tiers, as `pnpm test` runs them: unit (no I/O), integration (real PostgreSQL and NATS), e2e (Chromium).
export default defineConfig({
  test: {
    // One worker per core (at least two), not vitest's cores − 1: the main process only collects results, and the workers spend much
    // of their time waiting on PostgreSQL, NATS or jsdom. On a 2-core machine this halves the integration tier.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['{gateway,services,scripts}/**/src/**/*.test.ts', 'proto/http/**/*.test.ts', 'scripts/**/*.test.ts', 'deploy/**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/*.int.test.ts'],
        },
      },
      './web/vitest.config.ts',
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['{gateway,services}/**/*.int.test.ts', 'scripts/**/*.int.test.ts'],
          exclude: ['**/node_modules/**'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          expect: { poll: { timeout: 5_000 } },
          // Image work at normal priority: at the product's niceness 19 the media process gets almost no CPU while
          // the other test file keeps both cores busy (storage's unit tests timed out so in CI).
          env: { IMAGE_NICENESS: '0' },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['services/all-in-one/e2e/**/*.e2e.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // A page waited for under load (a slow host, CI's two cores) can take seconds: vitest's 1 s default made
          // polls fail on a slow machine that a person would not call broken.
          expect: { poll: { timeout: 10_000 } },
          // Run two at a time, the files took twice as long each on two cores, with no gain in all.
          fileParallelism: false,
        },
      },
    ],
  },
});
