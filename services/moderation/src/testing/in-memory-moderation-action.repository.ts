import type { ActionQuery, ModerationAction, ModerationActionRepository, NewModerationAction } from '../moderation-action.repository.js';

/**
 * The audit log in memory, for unit tests of the service's rules. It keeps the contract of the real
 * repository (moderation-action.repository.contract.ts runs against both): one entry per id, whoever writes
 * it first, and newest first. Entries are copied in and out, so a test sees only what was stored.
 */
export class InMemoryModerationActionRepository implements ModerationActionRepository {
  readonly #rows = new Map<string, ModerationAction>();
  #clock = Date.UTC(2025, 0, 1);
  #failures: Error[] = [];

  /** Makes the next `record` throw `error` without storing anything, as a lost connection would. */
  failNextRecord(error = new Error('connection lost')): void {
    this.#failures.push(error);
  }

  async record(action: NewModerationAction): Promise<boolean> {
    const failure = this.#failures.shift();
    if (failure) throw failure;
    if (this.#rows.has(action.id)) return false;
    // The upload time is written for the reviewer figures' queries, never read back as part of an entry.
    const { photoUploadedAt: _written, ...entry } = action;
    this.#rows.set(action.id, structuredClone({ ...entry, createdAt: action.createdAt ?? this.#tick() }));
    return true;
  }

  async list({ limit, photoId, photoIds }: ActionQuery): Promise<ModerationAction[]> {
    const filtered = photoId !== undefined || photoIds !== undefined;
    const ids = new Set([...(photoId === undefined ? [] : [photoId]), ...(photoIds ?? [])]);
    return [...this.#rows.values()]
      .filter((row) => !filtered || (row.photoId !== null && ids.has(row.photoId)))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
      .slice(0, limit)
      .map((row) => structuredClone(row));
  }

  /** Every entry, in no particular order. */
  all(): ModerationAction[] {
    return [...this.#rows.values()].map((row) => structuredClone(row));
  }

  #tick(): Date {
    this.#clock += 1000;
    return new Date(this.#clock);
  }
}
