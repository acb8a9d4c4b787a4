import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyMigrations, createLogger, openDatabase, type Database } from '@snapcracks/kit';
import { createTestDatabase, type TestDatabase } from '@snapcracks/kit/testing';
import { PrismaClient } from '../generated/prisma/client.js';
import { gatewayDatabase } from '../gateway.js';
import { DataExportRepository, type DataExportRow } from './data-export.repository.js';

let database: TestDatabase;
let db: Database<PrismaClient>;
let exports: DataExportRepository;
const limits = { maxPerWindow: 3, windowMs: 24 * 3600_000 };
const claimOptions = { staleMs: 120_000, maxAttempts: 3, step: 'Starting', gaveUp: 'gave up' };

beforeAll(async () => {
  database = await createTestDatabase('gateway_data_exports');
  await applyMigrations({ databaseUrl: database.url, ...gatewayDatabase });
  db = openDatabase(PrismaClient, { databaseUrl: database.url, schema: gatewayDatabase.schema, logger: createLogger('test', 'silent') });
  exports = new DataExportRepository(db.pool);
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
});
beforeEach(async () => {
  await db.pool.query('DELETE FROM gateway.data_exports');
});

const requested = async (userId: string) => {
  const row = await exports.request(userId, limits);
  if (typeof row === 'string') throw new Error(`refused: ${row}`);
  return row;
};
const stale = (id: string) => db.pool.query(`UPDATE gateway.data_exports SET updated_at = now() - interval '10 minutes' WHERE id = $1`, [id]);

describe('asking for exports', () => {
  it('lets one be queued or running per member, whatever the race, and counts each day', async () => {
    const answers = await Promise.all([exports.request('ada', limits), exports.request('ada', limits), exports.request('ada', limits)]);
    expect(answers.filter((answer) => typeof answer === 'object')).toHaveLength(1);
    expect(answers.filter((answer) => answer === 'inProgress')).toHaveLength(2);
    expect(await exports.request('bob', limits)).toMatchObject({ userId: 'bob', status: 'queued' });
    const first = answers.find((answer): answer is DataExportRow => typeof answer === 'object')!;
    await db.pool.query(`UPDATE gateway.data_exports SET status = 'failed' WHERE id = $1`, [first.id]);
    await requested('ada').then((row) => db.pool.query(`UPDATE gateway.data_exports SET status = 'failed' WHERE id = $1`, [row.id]));
    await requested('ada').then((row) => db.pool.query(`UPDATE gateway.data_exports SET status = 'failed' WHERE id = $1`, [row.id]));
    expect(await exports.request('ada', limits)).toBe('tooMany');
    await db.pool.query(`UPDATE gateway.data_exports SET created_at = now() - interval '25 hours' WHERE user_id = 'ada'`);
    expect(await exports.request('ada', limits)).toMatchObject({ status: 'queued' });
    // The table itself refuses a second one in progress.
    await expect(db.pool.query(`INSERT INTO gateway.data_exports (id, user_id, status) VALUES (gen_random_uuid(), 'ada', 'running')`)).rejects.toMatchObject({ code: '23505' });
  });
});

describe('claiming exports', () => {
  it('gives each waiting export to one runner, oldest first, and none twice', async () => {
    const a = await requested('ada');
    const b = await requested('bob');
    const [one, two, three] = await Promise.all([exports.claim('r1', claimOptions), exports.claim('r2', claimOptions), exports.claim('r3', claimOptions)]);
    const claimed = [one, two, three].filter(Boolean) as DataExportRow[];
    expect(claimed.map((row) => row.id).sort()).toEqual([a.id, b.id].sort());
    expect(claimed.every((row) => row.status === 'running' && row.attempts === 1 && row.step === 'Starting')).toBe(true);
    expect(await exports.claim('r4', claimOptions)).toBeNull();
  });

  it('takes back one whose runner stopped beating; the old runner then changes nothing', async () => {
    const job = await requested('ada');
    await exports.claim('dead', claimOptions);
    expect(await exports.claim('alive', claimOptions)).toBeNull();
    await stale(job.id);
    expect(await exports.claim('alive', claimOptions)).toMatchObject({ id: job.id, attempts: 2 });
    expect(await exports.progress(job.id, 'dead', 50, 'x')).toBe(false);
    expect(await exports.finish(job.id, 'dead', { blobKey: 'k', size: 1, keepMs: 1000 })).toBe(false);
    expect(await exports.progress(job.id, 'alive', 50, 'Copying')).toBe(true);
    expect(await exports.finish(job.id, 'alive', { blobKey: 'local:exports/x.zip', size: 10, keepMs: 24 * 3600_000 })).toBe(true);
    const ready = (await exports.latest('ada'))!;
    expect(ready).toMatchObject({ status: 'ready', progress: 100, step: null, blobKey: 'local:exports/x.zip', size: 10 });
    expect(ready.expiresAt!.getTime() - ready.finishedAt!.getTime()).toBe(24 * 3600_000);
    expect(await exports.ready('ada')).toMatchObject({ id: job.id });
  });

  it('fails one that lost its runner as often as it may, and hands one back at once when its runner stops', async () => {
    const job = await requested('ada');
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      expect(await exports.claim(`r${attempt}`, claimOptions)).toMatchObject({ attempts: attempt });
      await stale(job.id);
    }
    expect(await exports.claim('r4', claimOptions)).toBeNull();
    expect(await exports.latest('ada')).toMatchObject({ status: 'failed', error: 'gave up' });

    const next = await requested('bob');
    await exports.claim('stopping', claimOptions);
    await exports.release(next.id, 'stopping');
    expect(await exports.claim('other', claimOptions)).toMatchObject({ id: next.id, attempts: 1 });
  });

  it('lists ready copies past their time, and expires them without their file', async () => {
    const job = await requested('ada');
    await exports.claim('r', claimOptions);
    await exports.finish(job.id, 'r', { blobKey: 'local:exports/y.zip', size: 5, keepMs: 60_000 });
    expect(await exports.due()).toEqual([]);
    await db.pool.query(`UPDATE gateway.data_exports SET expires_at = now() - interval '1 second'`);
    expect((await exports.due()).map((row) => row.id)).toEqual([job.id]);
    expect(await exports.ready('ada')).toBeNull();
    await exports.expire(job.id);
    expect(await exports.latest('ada')).toMatchObject({ status: 'expired', blobKey: null });
    expect(await exports.due()).toEqual([]);
  });
});
