import { afterEach, describe, expect, it, vi } from 'vitest';
import { Lifecycle } from './lifecycle.js';
import { createRecordingLogger } from './testing/index.js';

const never = () => new Promise<void>(() => undefined);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Stops the lifecycle on fake timers (its deadlines are timers and Date.now), running them out; answers how long it took. */
async function stopOnFakeTimers(lifecycle: Lifecycle): Promise<number> {
  const started = Date.now();
  const stopped = lifecycle.stop();
  await vi.runAllTimersAsync();
  await stopped;
  return Date.now() - started;
}

describe('Lifecycle.stop', () => {
  afterEach(() => vi.useRealTimers());

  it('runs the steps in reverse order of registration', async () => {
    const { logger } = createRecordingLogger();
    const lifecycle = new Lifecycle(logger);
    const ran: string[] = [];
    for (const name of ['bus', 'database', 'server']) lifecycle.onStop(name, () => void ran.push(name));
    await lifecycle.stop();
    expect(ran).toEqual(['server', 'database', 'bus']);
  });

  it('keeps to one overall deadline when a step never finishes, and still runs the last steps in their reserved slice', async () => {
    vi.useFakeTimers();
    const { logger, records } = createRecordingLogger();
    const lifecycle = new Lifecycle(logger, { deadlineMs: 1_000, reservedPerStepMs: 100 });
    const ran: { name: string; at: number }[] = [];
    const started = Date.now();
    lifecycle.onStop('telemetry', () => void ran.push({ name: 'telemetry', at: Date.now() - started }));
    lifecycle.onStop('bus', async () => {
      ran.push({ name: 'bus', at: Date.now() - started });
      await sleep(20);
    });
    lifecycle.onStop('drain', never);
    expect(await stopOnFakeTimers(lifecycle)).toBe(820);
    // The stuck drain had the deadline less two reserved slices; the bus and telemetry ran after it, in time.
    expect(ran).toEqual([
      { name: 'bus', at: 800 },
      { name: 'telemetry', at: 820 },
    ]);
    expect(records.some((r) => r.msg === 'shutdown step failed' && r.step === 'drain')).toBe(true);
  });

  it('bounds the whole stop however many steps are stuck', async () => {
    vi.useFakeTimers();
    const { logger } = createRecordingLogger();
    const lifecycle = new Lifecycle(logger, { deadlineMs: 600, reservedPerStepMs: 50 });
    for (const name of ['a', 'b', 'c', 'd']) lifecycle.onStop(name, never);
    expect(await stopOnFakeTimers(lifecycle)).toBe(600);
  });

  it('gives a step that finishes early its unused time to the next', async () => {
    vi.useFakeTimers();
    const { logger } = createRecordingLogger();
    const lifecycle = new Lifecycle(logger, { deadlineMs: 1_000, reservedPerStepMs: 100 });
    let second = false;
    lifecycle.onStop('second', async () => {
      await sleep(700);
      second = true;
    });
    lifecycle.onStop('first', () => sleep(100));
    // The second had 900 ms less the reserved slice of none after it: its 700 ms fit.
    expect(await stopOnFakeTimers(lifecycle)).toBe(800);
    expect(second).toBe(true);
  });
});
