export interface GroupCommitOptions<T> {
  /** Most items written together. */
  maxBatch: number;
  /** Batches being written at once; more items wait for one of them to finish. */
  maxInFlight: number;
  /** Items with the same key go one batch after another, in the order they came; without it, any items may share one. */
  keyOf?: (item: T) => string;
  /**
   * With keyOf: items with one key may share a batch, in the order they came, and the writer applies them in that
   * order (e.g. one statement per round of distinct keys, in one transaction). A key another batch is writing still
   * waits. Without it, a burst of one key (a member changing a vote quickly) splits into many small batches.
   */
  repeatsInBatch?: boolean;
}

interface Waiting<T, R> {
  item: T;
  key: string | undefined;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * Group commit: an item is written as soon as a writer is free; items that arrive while every writer is busy wait
 * and go together in the next batch, so a burst costs a few transactions (or calls) instead of one per item, and a
 * lone item waits for nothing. With `keyOf`, items with the same key are written one batch after the other in the
 * order they came: a batch never holds two of them (unless repeatsInBatch), and none starts while another is being
 * written, e.g. because one SQL statement cannot change the same row twice and two transactions would race. Every item
 * of a batch gets that batch's outcome: its own result, or the error that failed the batch. Writing starts once the
 * code that submitted runs to its end (a microtask later), so items submitted together, e.g. the votes of one call,
 * make one batch rather than a lone first item followed by the rest.
 */
export class GroupCommit<T, R> {
  private readonly waiting: Waiting<T, R>[] = [];
  private inFlight = 0;
  private scheduled = false;
  /** Keys of the batches being written: items with these keys wait. */
  private readonly writing = new Set<string>();

  constructor(
    /** Writes the items together (one transaction, one call); answers one result per item, in their order. */
    private readonly write: (items: T[]) => Promise<R[]>,
    private readonly options: GroupCommitOptions<T>,
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, key: this.options.keyOf?.(item), resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      queueMicrotask(() => {
        this.scheduled = false;
        this.writeWaiting();
      });
    });
  }

  private writeWaiting(): void {
    while (this.inFlight < this.options.maxInFlight && this.waiting.length > 0) {
      const batch = this.takeBatch();
      if (batch.length === 0) return; // everything waiting has a key being written
      this.inFlight += 1;
      this.writeBatch(batch).finally(() => {
        this.inFlight -= 1;
        for (const entry of batch) if (entry.key !== undefined) this.writing.delete(entry.key);
        this.writeWaiting();
      });
    }
  }

  /**
   * The oldest waiting items whose keys none of the other batches being written holds, at most maxBatch, each key once
   * unless repeatsInBatch; the rest keep their places.
   */
  private takeBatch(): Waiting<T, R>[] {
    const batch: Waiting<T, R>[] = [];
    const own = new Set<string>();
    let kept = 0;
    for (const entry of this.waiting) {
      const free = entry.key === undefined || !this.writing.has(entry.key) || (this.options.repeatsInBatch === true && own.has(entry.key));
      if (batch.length < this.options.maxBatch && free) {
        if (entry.key !== undefined) {
          this.writing.add(entry.key);
          own.add(entry.key);
        }
        batch.push(entry);
      } else {
        this.waiting[kept++] = entry;
      }
    }
    this.waiting.length = kept;
    return batch;
  }

  private async writeBatch(batch: Waiting<T, R>[]): Promise<void> {
    try {
      const results = await this.write(batch.map((entry) => entry.item));
      if (results.length !== batch.length) throw new Error(`GroupCommit: ${results.length} results for ${batch.length} items`);
      batch.forEach((entry, i) => entry.resolve(results[i]!));
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    }
  }
}
