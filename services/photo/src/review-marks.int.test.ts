import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { applyMigrations, createLogger, createMemoryEventBus, createOutbox, openDatabase, type Database } from '@snapcracks/kit';
import { createTestDatabase, type TestDatabase } from '@snapcracks/kit/testing';
import { PrismaClient } from './generated/prisma/client.js';
import { PrismaPhotoRepository } from './photo.repository.js';
import { describeReviewMarksContract } from './testing/review-marks.contract.js';

const logger = createLogger('test', 'silent');
let database: TestDatabase;
let db: Database<PrismaClient>;
let repository: PrismaPhotoRepository;

beforeAll(async () => {
  database = await createTestDatabase('photo_marks');
  await applyMigrations({ databaseUrl: database.url, schema: 'photo', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)) });
  db = openDatabase(PrismaClient, { databaseUrl: database.url, schema: 'photo', logger });
  repository = new PrismaPhotoRepository(db.prisma, createOutbox({ prisma: db.prisma, schema: 'photo', bus: createMemoryEventBus({ logger }), logger }));
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
});
beforeEach(async () => {
  await db.prisma.$executeRawUnsafe('TRUNCATE photo.photos, photo.ratings, photo.rejected_hashes, photo.uploaders, photo.outbox RESTART IDENTITY');
});

describeReviewMarksContract('PrismaPhotoRepository', { repository: () => repository });

it('finds look-alikes through the band indexes, not by reading every rejected hash', async () => {
  // 5,000 rejected hashes: a lookup must not need them all. The query is the repository's, for one pending photo.
  await db.prisma.$executeRawUnsafe(`
    INSERT INTO photo.rejected_hashes (photo_id, user_id, dhash, rejection_reason, rejected_at)
    SELECT 1000000 + g, 'u', (random() * 9223372036854775807)::bigint, 'r', now() FROM generate_series(1, 5000) g`);
  await db.prisma.$executeRawUnsafe('ANALYZE photo.rejected_hashes');
  const plan = await db.prisma.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`
    EXPLAIN SELECT m.* FROM (SELECT 1 AS id, 'u' AS user_id, 12345::bigint AS h) q CROSS JOIN LATERAL (
      SELECT r.photo_id, bit_count((r.dhash # q.h)::bit(64))::int AS distance
      FROM photo.rejected_hashes r
      WHERE ((r.dhash & 511) = (q.h & 511)
          OR ((r.dhash >> 9) & 511) = ((q.h >> 9) & 511)
          OR ((r.dhash >> 18) & 511) = ((q.h >> 18) & 511)
          OR ((r.dhash >> 27) & 511) = ((q.h >> 27) & 511)
          OR ((r.dhash >> 36) & 511) = ((q.h >> 36) & 511)
          OR ((r.dhash >> 45) & 511) = ((q.h >> 45) & 511)
          OR ((r.dhash >> 54) & 1023) = ((q.h >> 54) & 1023))
        AND r.photo_id <> q.id AND bit_count((r.dhash # q.h)::bit(64)) <= 6
      ORDER BY 2 LIMIT 1) m`);
  const text = plan.map((row) => row['QUERY PLAN']).join('\n');
  for (let band = 0; band < 7; band++) expect(text).toContain(`rejected_hashes_band${band}`);
  expect(text).not.toMatch(/Seq Scan on rejected_hashes/);
});

it('keeps one hash per rejection, whatever later writes the row sees', async () => {
  await db.prisma.$executeRawUnsafe(`
    INSERT INTO photo.photos (user_id, filename, original_name, mime_type, size, status, rejection_reason, perceptual_hash, updated_at)
    VALUES ('u1', 'f1.webp', 'a.jpg', 'image/jpeg', 1, 'rejected', 'Inserted rejected', 'ffffffffffffffff', now())`);
  await db.prisma.$executeRawUnsafe(`UPDATE photo.photos SET status = 'rejected', rejection_reason = 'Again' WHERE filename = 'f1.webp'`);
  const rows = await db.prisma.rejectedHash.findMany();
  expect(rows).toEqual([{ photoId: expect.any(Number), userId: 'u1', dhash: -1n, rejectionReason: 'Inserted rejected', rejectedAt: expect.any(Date) }]);
});
