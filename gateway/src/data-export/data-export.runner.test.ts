import { Metadata, status } from '@grpc/grpc-js';
import { describe, expect, it, vi } from 'vitest';
import { DATA_EXPORT } from '@snapcracks/http-contract';
import type { Clients } from '../clients.js';
import type { DataExportRepository, DataExportRow } from './data-export.repository.js';
import { DataExportRunner, RUNNER_DEFAULTS, failureMessage } from './data-export.runner.js';

const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const grpcError = (code: number, details: string) => Object.assign(new Error(details), { code, details, metadata: new Metadata() });

function row(overrides: Partial<DataExportRow> = {}): DataExportRow {
  return {
    id: 'e1',
    userId: 'ada',
    status: 'running',
    progress: 0,
    step: null,
    blobKey: null,
    size: null,
    error: null,
    createdAt: new Date(),
    updatedAt: new Date(),
    finishedAt: null,
    expiresAt: null,
    attempts: 1,
    ...overrides,
  };
}

/** A repository that hands out `jobs` once each and records what the runner writes. */
function fakeRepository(jobs: DataExportRow[], due: DataExportRow[] = []) {
  const written: string[] = [];
  const repository = {
    claim: vi.fn(async () => jobs.shift() ?? null),
    due: vi.fn(async () => due.splice(0)),
    expire: vi.fn(async (id: string) => void written.push(`expire ${id}`)),
    fail: vi.fn(async (id: string, _runner: string, error: string) => {
      written.push(`fail ${id}: ${error}`);
      return true;
    }),
    progress: vi.fn(async () => true),
    release: vi.fn(async (id: string) => void written.push(`release ${id}`)),
  };
  return { repository: repository as unknown as DataExportRepository, written };
}

describe('what a member is told when their copy fails', () => {
  it('names the size limit, and asks to try again for anything else', () => {
    expect(failureMessage(grpcError(status.INVALID_ARGUMENT, DATA_EXPORT.tooLarge))).toBe(DATA_EXPORT.tooLarge);
    expect(failureMessage(new Error(DATA_EXPORT.tooLarge))).toBe(DATA_EXPORT.tooLarge);
    expect(failureMessage(grpcError(status.UNAVAILABLE, 'The file store is unavailable; please try again'))).toBe(DATA_EXPORT.failed);
    expect(failureMessage('odd')).toBe(DATA_EXPORT.failed);
  });
});

describe('the runner', () => {
  it('fails the export of an account that is disabled or gone, asking no service for its data', async () => {
    const { repository, written } = fakeRepository([row({ id: 'e1', userId: 'disabled' }), row({ id: 'e2', userId: 'gone' })]);
    const users = { get: vi.fn(async (id: string) => (id === 'disabled' ? ({ id, isEnabled: false, hasAcceptedTerms: true } as never) : null)) };
    const clients = {} as Clients;
    const runner = new DataExportRunner(repository, clients, users, logger, { ...RUNNER_DEFAULTS, pollMs: 10 });
    await runner.start();
    await vi.waitFor(() => expect(written).toHaveLength(2));
    await runner.stop();
    expect(written).toEqual([`fail e1: ${DATA_EXPORT.accountUnavailable}`, `fail e2: ${DATA_EXPORT.accountUnavailable}`]);
    expect(users.get).toHaveBeenCalledWith('disabled', { fresh: true });
  });

  it('deletes the file of a copy past its time before marking it expired, and keeps one whose file will not go', async () => {
    const { repository, written } = fakeRepository([], [row({ id: 'old', status: 'ready', blobKey: 'local:exports/old.zip' }), row({ id: 'stuck', status: 'ready', blobKey: 'local:exports/stuck.zip' })]);
    const deleted: string[][] = [];
    const clients = {
      storage: {
        call: {
          deleteBlobs: async ({ keys }: { keys: string[] }) => {
            if (keys.includes('local:exports/stuck.zip')) throw grpcError(status.UNAVAILABLE, 'down');
            deleted.push(keys);
            written.push(`delete ${keys.join(',')}`);
            return { deleted: keys.length };
          },
        },
      },
    } as unknown as Clients;
    const runner = new DataExportRunner(repository, clients, { get: async () => null }, logger);
    expect(await runner.expireDue()).toBe(1);
    expect(written).toEqual(['delete local:exports/old.zip', 'expire old']);
  });

  it('wakes at once when asked, rather than at its next look', async () => {
    const { repository } = fakeRepository([]);
    const runner = new DataExportRunner(repository, {} as Clients, { get: async () => null }, logger, { ...RUNNER_DEFAULTS, pollMs: 60_000 });
    await runner.start();
    await vi.waitFor(() => expect(repository.claim).toHaveBeenCalledTimes(1));
    runner.wake();
    await vi.waitFor(() => expect(repository.claim).toHaveBeenCalledTimes(2));
    await runner.stop();
  });
});
