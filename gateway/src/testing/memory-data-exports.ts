import { randomUUID } from 'node:crypto';
import type { DataExportRow, RequestRefusal } from '../data-export/data-export.repository.js';
import type { DataExports } from '../routes/data-export.routes.js';

/**
 * The exports table and runner in memory, for route tests: the same refusals as the repository (one in progress per
 * member, a number per window), nothing made in the background; `rows` is there to arrange what a test needs.
 */
export class MemoryDataExports implements DataExports {
  readonly rows: DataExportRow[] = [];
  wakes = 0;
  discarded: string[] = [];

  readonly store: DataExports['store'] = {
    request: async (userId, limits): Promise<DataExportRow | RequestRefusal> => {
      const mine = this.rows.filter((row) => row.userId === userId);
      if (mine.some((row) => row.status === 'queued' || row.status === 'running')) return 'inProgress';
      if (mine.filter((row) => Date.now() - row.createdAt.getTime() < limits.windowMs).length >= limits.maxPerWindow) return 'tooMany';
      const row: DataExportRow = {
        id: randomUUID(),
        userId,
        status: 'queued',
        progress: 0,
        step: null,
        blobKey: null,
        size: null,
        error: null,
        createdAt: new Date(),
        updatedAt: new Date(),
        finishedAt: null,
        expiresAt: null,
        attempts: 0,
      };
      this.rows.push(row);
      return row;
    },
    latest: async (userId) => this.mine(userId)[0] ?? null,
    ready: async (userId) => this.mine(userId).find((row) => row.status === 'ready' && row.blobKey && row.expiresAt && row.expiresAt > new Date()) ?? null,
    withFiles: async (userId) => this.mine(userId).filter((row) => row.blobKey),
  };

  readonly runner: DataExports['runner'] = {
    wake: () => {
      this.wakes += 1;
    },
    discard: async (rows) => {
      for (const row of rows) {
        this.discarded.push(row.id);
        Object.assign(row, { status: 'expired', blobKey: null });
      }
    },
  };

  private mine(userId: string): DataExportRow[] {
    return this.rows.filter((row) => row.userId === userId).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  }
}
