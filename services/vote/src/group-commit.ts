export interface GroupCommitOptions {
  /** Most items written together. */
  maxBatch: number;
  /** Batches being written at once; more items wait for one of them to finish. */
  maxInFlight: number;
}

interface Waiting<T, R> {
  item: T;
  key: string;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * Group commit: an item is written at once when a writer is free; items that arrive while every writer is busy wait
 * and go together in the next batch, so a burst costs a few transactions instead of one per item, and a lone item
 * waits for nothing. A batch never holds two items with the same key (the second waits for a later batch), because
 * one SQL statement cannot change the same row twice. Every item of a batch gets that batch's outcome: its own result,
 * or the error that failed the batch.
 */
export class GroupCommit<T, R> {
  private readonly waiting: Waiting<T, R>[] = [];
  private inFlight = 0;

  constructor(
    /** Writes the items in one transaction; answers one result per item, in their order. */
    private readonly write: (items: T[]) => Promise<R[]>,
    private readonly keyOf: (item: T) => string,
    private readonly options: GroupCommitOptions,
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, key: this.keyOf(item), resolve, reject });
      this.writeWaiting();
    });
  }

  private writeWaiting(): void {
    while (this.inFlight < this.options.maxInFlight && this.waiting.length > 0) {
      const batch = this.takeBatch();
      this.inFlight += 1;
      this.writeBatch(batch).finally(() => {
        this.inFlight -= 1;
        this.writeWaiting();
      });
    }
  }

  /** The oldest waiting items with distinct keys, at most maxBatch; the rest keep their places. */
  private takeBatch(): Waiting<T, R>[] {
    const batch: Waiting<T, R>[] = [];
    const keys = new Set<string>();
    let kept = 0;
    for (const entry of this.waiting) {
      if (batch.length < this.options.maxBatch && !keys.has(entry.key)) {
        keys.add(entry.key);
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
