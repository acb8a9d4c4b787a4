/**
 * What a member's dashboard costs at community scale: GetUserStats's two queries (the member's photos; their standing
 * among the owners) over a projection of `members` owners with 10 photos each, on a fresh database of the local
 * PostgreSQL. Rows are written directly (with the owners' figures they would have), not through the consumers.
 *   pnpm exec tsx services/stats/bench/user-stats.ts [members]
 */
import { fileURLToPath } from 'node:url';
import { applyMigrations, createLogger, openDatabase } from '@snapcracks/kit';
import { createTestDatabase } from '@snapcracks/kit/testing';
import { PrismaClient } from '../src/generated/prisma/client.js';
import { PrismaStatsRepository } from '../src/stats.repository.js';
import { StatsService } from '../src/stats.service.js';

const members = Number(process.argv[2] ?? '10000');
const database = await createTestDatabase('stats_user_bench');
try {
  await applyMigrations({ databaseUrl: database.url, schema: 'stats', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)) });
  const db = openDatabase(PrismaClient, { databaseUrl: database.url, schema: 'stats', logger: createLogger('bench', 'silent') });
  // 10 photos a member: 6 approved with 0–19 votes, 2 pending, 2 rejected.
  await db.prisma.$executeRawUnsafe(`
    INSERT INTO stats.photos (photo_id, owner_id, status, filename, created_at, approved_at, version, vote_count, rating_sum)
    SELECT n, 'member-' || (n / 10), (CASE WHEN n % 10 < 6 THEN 'approved' WHEN n % 10 < 8 THEN 'pending' ELSE 'rejected' END)::stats."PhotoStatus",
           n || '.webp', now() - (n % 1000) * interval '1 hour', CASE WHEN n % 10 < 6 THEN now() - (n % 900) * interval '1 hour' END, 2,
           CASE WHEN n % 10 < 6 THEN (n * 7) % 20 ELSE 0 END, CASE WHEN n % 10 < 6 THEN ((n * 7) % 20) * (1 + (n % 5)) ELSE 0 END
    FROM generate_series(0, $1::int * 10 - 1) n`, members);
  await db.prisma.$executeRawUnsafe(`
    INSERT INTO stats.owners (owner_id, approved_photos, votes_received, rating_sum_received)
    SELECT owner_id, count(*), sum(vote_count), sum(rating_sum) FROM stats.photos WHERE status = 'approved' GROUP BY owner_id`);
  await db.prisma.$executeRawUnsafe('VACUUM ANALYZE stats.photos');
  await db.prisma.$executeRawUnsafe('VACUUM ANALYZE stats.owners');
  const repository = new PrismaStatsRepository(db.prisma);
  const service = new StatsService(repository);
  const time = async (label: string, run: (i: number) => Promise<unknown>, times = 200) => {
    for (let i = 0; i < 20; i++) await run(i);
    const started = process.hrtime.bigint();
    for (let i = 0; i < times; i++) await run(i);
    console.log(`${label}: ${(Number(process.hrtime.bigint() - started) / 1e6 / times).toFixed(2)} ms a call`);
  };
  console.log(`${members} members, ${members * 10} photos`);
  const week = { uploadedFrom: new Date(Date.now() - 7 * 86_400_000), uploadedTo: new Date(), recent: 5 };
  await time('memberPhotos', (i) => repository.memberPhotos(`member-${(i * 37) % members}`, week));
  await time('memberStanding', (i) => repository.memberStanding(`member-${(i * 37) % members}`, { minVotes: 3 }));
  await time('GetUserStats (both, in parallel)', (i) => service.user(`member-${(i * 37) % members}`));
  await db.close();
} finally {
  await database.drop();
}
