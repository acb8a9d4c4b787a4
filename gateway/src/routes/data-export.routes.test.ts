import { afterEach, describe, expect, it } from 'vitest';
import { DATA_EXPORT, schemas } from '@snapcracks/http-contract';
import type { DataExportRow } from '../data-export/data-export.repository.js';
import { MemoryDataExports } from '../testing/memory-data-exports.js';
import { MEMBER, gatewayHarness, type GatewayHarness } from '../testing/gateway-harness.js';

const OTHER = { id: 'member-2', hasAcceptedTerms: true };
const HOUR = 3600_000;

let harness: GatewayHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function row(overrides: Partial<DataExportRow>): DataExportRow {
  const now = new Date();
  return {
    id: '00000000-0000-4000-8000-000000000001',
    userId: MEMBER.id,
    status: 'ready',
    progress: 100,
    step: null,
    blobKey: 'local:exports/00000000-0000-4000-8000-000000000001.zip',
    size: 1234,
    error: null,
    createdAt: new Date(now.getTime() - HOUR),
    updatedAt: now,
    finishedAt: new Date('2026-11-29T10:00:00Z'),
    expiresAt: new Date(now.getTime() + HOUR),
    attempts: 1,
    ...overrides,
  };
}

async function setUp(exports = new MemoryDataExports(), services = {}) {
  harness = await gatewayHarness({ dataExports: exports, services });
  return { exports, member: await harness.signIn(MEMBER), other: await harness.signIn(OTHER) };
}

describe('asking for a copy of your data', () => {
  it('queues one for the caller (202), wakes the runner, and refuses a second while it is made (409)', async () => {
    const { exports, member } = await setUp();
    const first = await harness!.inject({ method: 'POST', url: '/api/user/data-export', cookie: member });
    expect(first.statusCode).toBe(202);
    const body = schemas.dataExport.parse(first.json());
    expect(body).toMatchObject({ status: 'queued', progress: 0, size: null, downloadUrl: null, error: null });
    expect(exports.rows).toHaveLength(1);
    expect(exports.rows[0]!.userId).toBe(MEMBER.id);
    expect(exports.wakes).toBe(1);
    const second = await harness!.inject({ method: 'POST', url: '/api/user/data-export', cookie: member });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({ message: DATA_EXPORT.inProgress });
  });

  it(`allows ${DATA_EXPORT.maxPerWindow} a day, then answers 429 saying so`, async () => {
    const exports = new MemoryDataExports();
    for (let i = 0; i < DATA_EXPORT.maxPerWindow; i += 1) exports.rows.push(row({ id: `00000000-0000-4000-8000-00000000000${i}`, status: 'failed' }));
    const { member, other } = await setUp(exports);
    const refused = await harness!.inject({ method: 'POST', url: '/api/user/data-export', cookie: member });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: DATA_EXPORT.tooMany });
    // Another member's count is their own.
    expect((await harness!.inject({ method: 'POST', url: '/api/user/data-export', cookie: other })).statusCode).toBe(202);
  });
});

describe('your latest copy', () => {
  it('is null before the first, and only ever your own', async () => {
    const exports = new MemoryDataExports();
    exports.rows.push(row({}));
    const { member, other } = await setUp(exports);
    const mine = await harness!.inject({ method: 'GET', url: '/api/user/data-export', cookie: member });
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['cache-control']).toBe('private, no-store');
    expect(schemas.latestDataExport.parse(mine.json())).toMatchObject({ status: 'ready', size: 1234, downloadUrl: '/api/user/data-export/download' });
    const theirs = await harness!.inject({ method: 'GET', url: '/api/user/data-export', cookie: other });
    expect(theirs.json()).toBeNull();
  });

  it('shows a ready copy past its time as expired, with nothing to download, and wakes the runner to delete it', async () => {
    const exports = new MemoryDataExports();
    exports.rows.push(row({ expiresAt: new Date(Date.now() - 1000) }));
    const { member } = await setUp(exports);
    const shown = (await harness!.inject({ method: 'GET', url: '/api/user/data-export', cookie: member })).json();
    expect(shown).toMatchObject({ status: 'expired', downloadUrl: null, size: null });
    expect(exports.wakes).toBe(1);
    const download = await harness!.inject({ method: 'GET', url: '/api/user/data-export/download', cookie: member });
    expect(download.statusCode).toBe(404);
    expect(download.json()).toEqual({ message: DATA_EXPORT.notReady });
  });

  it('shows the step while running and the error once failed, never both', async () => {
    const exports = new MemoryDataExports();
    exports.rows.push(row({ status: 'running', progress: 40, step: 'Copying photo 2 of 5', blobKey: null, finishedAt: null, expiresAt: null }));
    const { member } = await setUp(exports);
    expect((await harness!.inject({ method: 'GET', url: '/api/user/data-export', cookie: member })).json()).toMatchObject({ status: 'running', progress: 40, step: 'Copying photo 2 of 5', error: null });
    Object.assign(exports.rows[0]!, { status: 'failed', error: DATA_EXPORT.failed, finishedAt: new Date() });
    expect((await harness!.inject({ method: 'GET', url: '/api/user/data-export', cookie: member })).json()).toMatchObject({ status: 'failed', step: null, error: DATA_EXPORT.failed });
  });
});

describe('downloading and discarding', () => {
  it("streams the caller's ready zip as an attachment named by its day", async () => {
    const exports = new MemoryDataExports();
    exports.rows.push(row({}));
    const keys: string[] = [];
    const { member, other } = await setUp(exports, {
      storage: {
        getBlob: ({ key }: { key: string }) => {
          keys.push(key);
          return [{ part: { $case: 'info', value: { key, size: 4, contentType: 'application/zip', etag: 'e' } } }, { part: { $case: 'chunk', value: Buffer.from('PK..') } }];
        },
      },
    });
    const download = await harness!.inject({ method: 'GET', url: '/api/user/data-export/download', cookie: member });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/zip');
    expect(download.headers['content-disposition']).toBe('attachment; filename="snapcracks-export-2026-11-29.zip"');
    expect(download.body).toBe('PK..');
    expect(keys).toEqual([exports.rows[0]!.blobKey]);
    expect((await harness!.inject({ method: 'GET', url: '/api/user/data-export/download', cookie: other })).statusCode).toBe(404);
  });

  it('discards a ready copy (204), and refuses while one is being made (409)', async () => {
    const exports = new MemoryDataExports();
    exports.rows.push(row({}));
    const { member } = await setUp(exports);
    expect((await harness!.inject({ method: 'DELETE', url: '/api/user/data-export', cookie: member })).statusCode).toBe(204);
    expect(exports.discarded).toEqual([exports.rows[0]!.id]);
    exports.rows.push(row({ id: '00000000-0000-4000-8000-000000000009', status: 'queued', createdAt: new Date() }));
    const refused = await harness!.inject({ method: 'DELETE', url: '/api/user/data-export', cookie: member });
    expect(refused.statusCode).toBe(409);
  });
});
