/** The image queue is full (or this member's share of it): the caller is told to come back, never kept waiting. */
export class ImageQueueFullError extends Error {
  override readonly name = 'ImageQueueFullError';

  constructor(readonly scope: 'member' | 'all') {
    super('Many photos are being processed right now. Please try again in a minute.');
  }
}

export interface FairQueueOptions {
  /** Tasks running at once. */
  slots: number;
  /** Tasks waiting at most, everyone's together: one more is refused (ImageQueueFullError). */
  maxWaiting: number;
  /** Tasks one member may have waiting at most, so that no member can fill the queue for the others. */
  maxWaitingPerMember: number;
  /**
   * Tasks one member (or background work) may have running at once; default all the slots. Below `slots`, a slot
   * stays free for whoever comes next while one member's burst runs: a long task cannot be interrupted, so with every
   * slot held by one member, another's would wait for the end of one of theirs.
   */
  maxRunningPerMember?: number;
}

/**
 * At most `slots` tasks at once, the others waiting in one queue per member, served round robin: a member with ten
 * photos waiting gets one slot in turn with a member who has one, so the second never waits behind the first's
 * ten. Work for nobody in particular (a backfill, a task without a member) waits in a queue of its own that is only
 * served when no member waits. With `maxRunningPerMember` below `slots`, one member's burst never holds every slot. Waiting is bounded: past `maxWaitingPerMember` for one member, or `maxWaiting` for
 * everyone, a task is refused at once (ImageQueueFullError) instead of joining an ever longer wait.
 */
export class FairQueue {
  private running = 0;
  // A Map keeps insertion order: the member first in it is served next, then moves to the back if they still wait.
  private readonly members = new Map<string, Array<() => void>>();
  private readonly background: Array<() => void> = [];
  private waitingCount = 0;
  /** Running tasks by member ('' for background work). */
  private readonly runningBy = new Map<string, number>();
  private readonly maxRunningPerMember: number;

  constructor(private readonly options: FairQueueOptions) {
    if (!Number.isInteger(options.slots) || options.slots < 1) throw new RangeError('slots must be a positive integer');
    this.maxRunningPerMember = Math.max(1, Math.min(options.slots, options.maxRunningPerMember ?? options.slots));
  }

  /** Tasks waiting for a slot. */
  get waiting(): number {
    return this.waitingCount;
  }

  /** Runs `task` for `member` (undefined: background work) once a slot is its turn. */
  async run<T>(member: string | undefined, task: () => Promise<T>): Promise<T> {
    const key = member ?? '';
    // A free slot means nobody waiting may take it (startWaiting hands slots over as they free up): only members at
    // their running limit wait, and background work, which never starts while a member waits.
    if (this.running < this.options.slots && this.mayRun(key) && (member !== undefined || this.members.size === 0)) this.countIn(key);
    // Counted in by startWaiting when its turn comes.
    else await this.wait(member);
    try {
      return await task();
    } finally {
      const left = this.runningBy.get(key)! - 1;
      if (left > 0) this.runningBy.set(key, left);
      else this.runningBy.delete(key);
      this.running--;
      // The member just served goes behind everyone waiting: a member who was waiting before their next task is next.
      const theirs = this.members.get(key);
      if (theirs) {
        this.members.delete(key);
        this.members.set(key, theirs);
      }
      this.startWaiting();
    }
  }

  private mayRun(key: string): boolean {
    return (this.runningBy.get(key) ?? 0) < this.maxRunningPerMember;
  }

  private countIn(key: string): void {
    this.running++;
    this.runningBy.set(key, (this.runningBy.get(key) ?? 0) + 1);
  }

  private wait(member: string | undefined): Promise<void> {
    if (this.waitingCount >= this.options.maxWaiting) throw new ImageQueueFullError('all');
    const queue = member === undefined ? this.background : (this.members.get(member) ?? []);
    if (member !== undefined && queue.length >= this.options.maxWaitingPerMember) throw new ImageQueueFullError('member');
    if (member !== undefined && !this.members.has(member)) this.members.set(member, queue);
    this.waitingCount++;
    return new Promise<void>((resolve) => queue.push(resolve));
  }

  /**
   * Free slots go to the next member in turn who may run another task, else to background work. The slot is counted
   * as taken at once (before the waiter's code resumes), so no newcomer slips in between.
   */
  private startWaiting(): void {
    while (this.running < this.options.slots) {
      const next = this.nextWaiter();
      if (!next) return;
      this.waitingCount--;
      this.countIn(next.key);
      next.start();
    }
  }

  private nextWaiter(): { key: string; start: () => void } | undefined {
    for (const [member, queue] of this.members) {
      if (!this.mayRun(member)) continue;
      const start = queue.shift()!;
      this.members.delete(member);
      if (queue.length > 0) this.members.set(member, queue);
      return { key: member, start };
    }
    if (this.members.size === 0 && this.background.length > 0 && this.mayRun('')) return { key: '', start: this.background.shift()! };
    return undefined;
  }
}
