import { describe, expect, it } from 'vitest';
import { Lifecycle } from './lifecycle.js';
import { createRecordingLogger } from './testing/index.js';

const never = () => new Promise<void>(() => undefined);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('Lifecycle.stop', () => {
  it('runs the steps in reverse order of registration', async () => {
    const { logger } = createRecordingLogger();
    const lifecycle = new Lifecycle(logger);
    const ran: string[] = [];
    for (const name of ['bus', 'database', 'server']) lifecycle.onStop(name, () => void ran.push(name));
    await lifecycle.stop();
    expect(ran).toEqual(['server', 'database', 'bus']);
  });

  it('keeps to one overall deadline when a step never finishes, and still runs the last steps in their reserved slice', async () => {
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
    await lifecycle.stop();
    const total = Date.now() - started;
    expect(total).toBeLessThan(1_100);
    // The stuck drain had the deadline less two reserved slices; the bus and telemetry ran after it, in time.
    expect(ran.map((r) => r.name)).toEqual(['bus', 'telemetry']);
    expect(ran[0]!.at).toBeGreaterThanOrEqual(750);
    expect(ran[0]!.at).toBeLessThan(900);
    expect(records.some((r) => r.msg === 'shutdown step failed' && r.step === 'drain')).toBe(true);
  });

  it('bounds the whole stop however many steps are stuck', async () => {
    const { logger } = createRecordingLogger();
    const lifecycle = new Lifecycle(logger, { deadlineMs: 600, reservedPerStepMs: 50 });
    for (const name of ['a', 'b', 'c', 'd']) lifecycle.onStop(name, never);
    const started = Date.now();
    await lifecycle.stop();
    expect(Date.now() - started).toBeLessThan(700);
    expect(Date.now() - started).toBeGreaterThanOrEqual(590);
  });

  it('gives a step that finishes early its unused time to the next', async () => {
    const { logger } = createRecordingLogger();
    const lifecycle = new Lifecycle(logger, { deadlineMs: 1_000, reservedPerStepMs: 100 });
    let second = false;
    lifecycle.onStop('second', async () => {
      await sleep(700);
      second = true;
    });
    lifecycle.onStop('first', () => sleep(100));
    await lifecycle.stop();
    expect(second).toBe(true);
  });
});
