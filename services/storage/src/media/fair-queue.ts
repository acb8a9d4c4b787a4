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
}

/**
 * At most `slots` tasks at once, the others waiting in one queue per member, served round robin: a member with ten
 * photos waiting gets one slot in turn with a member who has one, so the second never waits behind the first's
 * ten. Work for nobody in particular (a backfill, a task without a member) waits in a queue of its own that is only
 * served when no member waits. Waiting is bounded: past `maxWaitingPerMember` for one member, or `maxWaiting` for
 * everyone, a task is refused at once (ImageQueueFullError) instead of joining an ever longer wait.
 */
export class FairQueue {
  private running = 0;
  // A Map keeps insertion order: the member first in it is served next, then moves to the back if they still wait.
  private readonly members = new Map<string, Array<() => void>>();
  private readonly background: Array<() => void> = [];
  private waitingCount = 0;

  constructor(private readonly options: FairQueueOptions) {
    if (!Number.isInteger(options.slots) || options.slots < 1) throw new RangeError('slots must be a positive integer');
  }

  /** Tasks waiting for a slot. */
  get waiting(): number {
    return this.waitingCount;
  }

  /** Runs `task` for `member` (undefined: background work) once a slot is its turn. */
  async run<T>(member: string | undefined, task: () => Promise<T>): Promise<T> {
    if (this.running < this.options.slots && this.waitingCount === 0) this.running++;
    else await this.wait(member);
    try {
      return await task();
    } finally {
      this.passSlot();
    }
  }

  private wait(member: string | undefined): Promise<void> {
    if (this.waitingCount >= this.options.maxWaiting) throw new ImageQueueFullError('all');
    const queue = member === undefined ? this.background : (this.members.get(member) ?? []);
    if (member !== undefined && queue.length >= this.options.maxWaitingPerMember) throw new ImageQueueFullError('member');
    if (member !== undefined && !this.members.has(member)) this.members.set(member, queue);
    this.waitingCount++;
    return new Promise<void>((resolve) => queue.push(resolve));
  }

  /** The finished task's slot goes to the next member in turn, else to background work, else it is freed. */
  private passSlot(): void {
    const next = this.nextWaiter();
    if (next) {
      this.waitingCount--;
      next();
    } else {
      this.running--;
    }
  }

  private nextWaiter(): (() => void) | undefined {
    for (const [member, queue] of this.members) {
      const next = queue.shift();
      this.members.delete(member);
      if (queue.length > 0) this.members.set(member, queue);
      if (next) return next;
    }
    return this.background.shift();
  }
}
