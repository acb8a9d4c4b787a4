import { describe, expect, it } from 'vitest';
import { FairQueue, ImageQueueFullError } from './fair-queue.js';

/** A task that runs until `finish()`, recording when it started. */
function gate(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    task: async () => {
      log.push(name);
      await done;
      return name;
    },
    finish: () => finish(),
  };
}

/** Lets every settled promise's callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('FairQueue', () => {
  it('serves members round robin: member B’s one job starts before member A’s tenth', async () => {
    const queue = new FairQueue({ slots: 1, maxWaiting: 100, maxWaitingPerMember: 100 });
    const log: string[] = [];
    const job = (name: string) => async () => {
      log.push(name);
      await settle();
    };
    const runs = Array.from({ length: 10 }, (_, i) => queue.run('A', job(`A${i + 1}`)));
    runs.push(queue.run('B', job('B1')));
    await Promise.all(runs);
    expect(log.indexOf('B1')).toBeLessThan(log.indexOf('A10'));
    expect(log.slice(0, 3)).toEqual(['A1', 'B1', 'A2']);
  });

  it('serves a member who arrives while another’s burst waits before the burst’s next task', async () => {
    const queue = new FairQueue({ slots: 1, maxWaiting: 100, maxWaitingPerMember: 100 });
    const log: string[] = [];
    const a1 = gate(log, 'A1');
    const runs = [queue.run('A', a1.task), queue.run('A', async () => void log.push('A2'))];
    await settle();
    runs.push(queue.run('B', async () => void log.push('B1')));
    a1.finish();
    await Promise.all(runs);
    expect(log).toEqual(['A1', 'B1', 'A2']);
  });

  it('keeps background work (no member) behind every member’s, whatever came first', async () => {
    const queue = new FairQueue({ slots: 1, maxWaiting: 100, maxWaitingPerMember: 100 });
    const log: string[] = [];
    const first = gate(log, 'member-1');
    const background = gate(log, 'background');
    const second = gate(log, 'member-2');
    const runs = [queue.run('A', first.task), queue.run(undefined, background.task), queue.run('B', second.task)];
    await settle();
    first.finish();
    await settle();
    second.finish();
    await settle();
    background.finish();
    await Promise.all(runs);
    expect(log).toEqual(['member-1', 'member-2', 'background']);
  });

  it('is bounded: a full queue refuses at once, and one member cannot fill it for the others', async () => {
    const queue = new FairQueue({ slots: 1, maxWaiting: 3, maxWaitingPerMember: 2 });
    const log: string[] = [];
    const running = gate(log, 'running');
    const jobs = [queue.run('A', running.task)];
    await settle();
    // A may have two waiting; the third is A's share exceeded.
    jobs.push(queue.run('A', async () => 'a2'), queue.run('A', async () => 'a3'));
    await expect(queue.run('A', async () => 'a4')).rejects.toMatchObject({ name: 'ImageQueueFullError', scope: 'member' });
    // B still gets in; then everyone's queue (3) is full.
    jobs.push(queue.run('B', async () => 'b1'));
    const refused = queue.run('C', async () => 'c1');
    await expect(refused).rejects.toBeInstanceOf(ImageQueueFullError);
    await expect(refused).rejects.toMatchObject({ scope: 'all' });
    expect(queue.waiting).toBe(3);
    running.finish();
    expect(await Promise.all(jobs)).toEqual(['running', 'a2', 'a3', 'b1']);
    expect(queue.waiting).toBe(0);
  });

  it('runs up to `slots` at once and frees the slot of a task that failed', async () => {
    const queue = new FairQueue({ slots: 2, maxWaiting: 10, maxWaitingPerMember: 10 });
    const log: string[] = [];
    const one = gate(log, 'one');
    const two = gate(log, 'two');
    const runs = [queue.run('A', one.task), queue.run('B', two.task)];
    await settle();
    expect(log).toEqual(['one', 'two']);
    const failing = queue.run('C', async () => Promise.reject(new Error('broken')));
    expect(queue.waiting).toBe(1);
    one.finish();
    await expect(failing).rejects.toThrow('broken');
    two.finish();
    await Promise.all(runs);
    expect(queue.waiting).toBe(0);
    expect(await queue.run('A', async () => 'after')).toBe('after');
  });
});

describe('FairQueue with maxRunningPerMember', () => {
  it('keeps a slot for another member while one member’s burst runs', async () => {
    const queue = new FairQueue({ slots: 2, maxWaiting: 100, maxWaitingPerMember: 100, maxRunningPerMember: 1 });
    const log: string[] = [];
    const a1 = gate(log, 'A1');
    const a2 = gate(log, 'A2');
    const b1 = gate(log, 'B1');
    const runs = [queue.run('A', a1.task), queue.run('A', a2.task)];
    await settle();
    // A runs one at a time; the second slot stays free...
    expect(log).toEqual(['A1']);
    expect(queue.waiting).toBe(1);
    // ...so B starts at once, without waiting for A's task to end.
    runs.push(queue.run('B', b1.task));
    await settle();
    expect(log).toEqual(['A1', 'B1']);
    a1.finish();
    await settle();
    expect(log).toEqual(['A1', 'B1', 'A2']);
    a2.finish();
    b1.finish();
    expect(await Promise.all(runs)).toEqual(['A1', 'A2', 'B1']);
  });

  it('starts background work in a free slot only when no member waits', async () => {
    const queue = new FairQueue({ slots: 2, maxWaiting: 100, maxWaitingPerMember: 100, maxRunningPerMember: 1 });
    const log: string[] = [];
    const a1 = gate(log, 'A1');
    const a2 = gate(log, 'A2');
    const background = gate(log, 'background');
    const runs = [queue.run('A', a1.task), queue.run('A', a2.task), queue.run(undefined, background.task)];
    await settle();
    expect(log).toEqual(['A1']);
    a1.finish();
    await settle();
    expect(log).toEqual(['A1', 'A2', 'background']);
    a2.finish();
    background.finish();
    await Promise.all(runs);
  });
});
