/**
 * What the votes consumer's batches cost PostgreSQL: applyVoteEvents in a transaction on the pool, as consumeBatches
 * runs it (without the kit's record of the event ids), on a fresh database of the local PostgreSQL holding `photos`
 * approved photos, in batches of `size` vote events on random photos (a fifth of them changed votes). A first round
 * of `batches` warms the tables up; a second is measured.
 *   pnpm exec tsx services/stats/bench/vote-batch-sql.ts [photos] [batches] [size] [--room=0.25] [--explain]
 * e.g. `... 10000 400 25` and `... 100000 400 25`.
 *  - Each statement's execution time and WAL per event come from pg_stat_statements, for this database only (the
 *    server must load it: shared_preload_libraries); the wall time per batch is the client's (Node's work and the
 *    commit's flush included). The figures are checked against a count over the rows at the end.
 *  - Full-page images depend on when the server last checkpointed (any database's activity moves it), so the WAL of
 *    this database's records without them is read too, with pg_walinspect when the server has it.
 *  - A freshly written table has full pages, so a row's first update cannot stay on its page (no HOT update);
 *    `--room` leaves that share of every page free instead, as pages that have been pruned a while would have.
 *  - `--explain` prints EXPLAIN (ANALYZE, BUFFERS, WAL) of one more batch's statements (a top node's WAL leaves out the
 *    data-modifying CTEs that run after the main query; pg_stat_statements counts them).
 */
import { fileURLToPath } from 'node:url';
import { applyMigrations, createLogger, decodeEventOfType, inTransaction, openDatabase, type SqlClient } from '@snapcracks/kit';
import { createTestDatabase } from '@snapcracks/kit/testing';
import { PrismaClient } from '../src/generated/prisma/client.js';
import { COUNTER_SHARDS, NO_STARS, type Stars } from '../src/stats.projection.js';
import { PrismaStatsRepository } from '../src/stats.repository.js';
import { SqlProjectionStore } from '../src/projection.store.js';
import { cast } from '../src/testing/events.js';
import { seededRandom } from '../src/testing/histories.js';
import { VOTE_EVENTS, applyVoteEvents, type VoteEvent } from '../src/consumers/votes.consumer.js';

const flags = process.argv.slice(2).filter((a) => a.startsWith('--'));
const [photos = 10_000, batches = 400, size = 25] = process.argv
  .slice(2)
  .filter((a) => !a.startsWith('--'))
  .map(Number);
const room = Number(flags.find((f) => f.startsWith('--room='))?.slice('--room='.length) ?? 0);
const explain = flags.includes('--explain');
if (!(room >= 0 && room < 1)) throw new Error('--room is a share of each page, from 0 to below 1');

const database = await createTestDatabase('stats_vote_sql_bench');
try {
  await applyMigrations({ databaseUrl: database.url, schema: 'stats', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)) });
  const db = openDatabase(PrismaClient, { databaseUrl: database.url, schema: 'stats', logger: createLogger('bench', 'silent'), max: 2 });
  const sql = (text: string, values: unknown[] = []) => db.pool.query(text, values);
  // Approved photos with no votes yet, ten per owner, written in id order; with --room, rows in between (ids from
  // 10^12) take the share of each page that their deletion then frees.
  await sql(
    `INSERT INTO stats.photos (photo_id, owner_id, status, filename, created_at, approved_at, reviewed_at, review_version, version)
     SELECT CASE WHEN filler THEN 1e12 + g ELSE n END, 'owner-' || (n % greatest($1::int / 10, 1)), 'approved', n || '.webp', now(), now(), now(), 2, 2
     FROM generate_series(1, ceil($1::int / (1 - $2::float8))::int) g,
          LATERAL (SELECT floor(g * (1 - $2::float8)) = floor((g - 1) * (1 - $2::float8)) AS filler, floor(g * (1 - $2::float8))::int AS n) f
     ORDER BY g`,
    [photos, room],
  );
  await sql('DELETE FROM stats.photos WHERE photo_id >= 1e12');
  await sql(`INSERT INTO stats.owners (owner_id, approved_photos) SELECT owner_id, count(*) FROM stats.photos GROUP BY owner_id`);
  await sql(
    `INSERT INTO stats.community_counters (shard, photos, approved_photos, distinct_uploaders)
     SELECT s, count(p.photo_id), count(p.photo_id), CASE WHEN s = 0 THEN (SELECT count(*) FROM stats.owners) ELSE 0 END
     FROM generate_series(0, $1::int - 1) s LEFT JOIN stats.photos p ON p.photo_id % $1::int = s GROUP BY s`,
    [COUNTER_SHARDS],
  );
  for (const table of ['photos', 'owners', 'community_counters']) await sql(`VACUUM ANALYZE stats.${table}`);
  const seeded = await sql('SELECT count(*)::int AS "photos", pg_relation_size($1::regclass)::float8 / 8192 AS "pages" FROM stats.photos', ['stats.photos']);
  if (seeded.rows[0].photos !== photos) throw new Error(`seeded ${seeded.rows[0].photos} photos instead of ${photos}`);
  await sql('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  const walinspect = await sql('CREATE EXTENSION IF NOT EXISTS pg_walinspect').then(
    () => true,
    () => false,
  );

  // Each photo's totals and votes per star as the vote service would report them.
  const random = seededRandom(7);
  const state = new Map<number, { voteCount: number; ratingSum: number; version: number; stars: Stars }>();
  const nextBatch = (): VoteEvent[] =>
    Array.from({ length: size }, () => {
      const photoId = 1 + Math.floor(random() * photos);
      const s = state.get(photoId) ?? { voteCount: 0, ratingSum: 0, version: 0, stars: [...NO_STARS] };
      state.set(photoId, s);
      const rating = 1 + Math.floor(random() * 5);
      const changeable = s.stars.flatMap((n, i) => (n > 0 && i + 1 !== rating ? [i + 1] : []));
      const previousRating = random() < 0.2 && changeable.length > 0 ? changeable[Math.floor(random() * changeable.length)] : undefined;
      if (previousRating === undefined) s.voteCount++;
      else s.stars[previousRating - 1]!--;
      s.stars[rating - 1]!++;
      s.ratingSum += rating - (previousRating ?? 0);
      s.version++;
      const event = cast(photoId, { voteCount: s.voteCount, ratingSum: s.ratingSum, version: s.version }, { userId: `voter-${s.version}`, rating, previousRating });
      return decodeEventOfType(event, VOTE_EVENTS);
    });
  const round = async () => {
    let wall = 0;
    for (let i = 0; i < batches; i++) {
      const events = nextBatch();
      const started = process.hrtime.bigint();
      await inTransaction(db.pool, (tx) => applyVoteEvents(events, new SqlProjectionStore(tx)));
      wall += Number(process.hrtime.bigint() - started);
    }
    return wall / 1e3 / (batches * size);
  };

  await round();
  await sql('SELECT pg_stat_statements_reset(0, (SELECT oid FROM pg_database WHERE datname = current_database()), 0)');
  const walFrom = (await sql('SELECT pg_current_wal_insert_lsn()::text AS "lsn"')).rows[0].lsn as string;
  const wallPerEvent = await round();
  const walTo = (await sql('SELECT pg_current_wal_insert_lsn()::text AS "lsn"')).rows[0].lsn as string;
  const events = batches * size;
  const { rows } = await sql(
    `SELECT left(regexp_replace(query, '\\s+', ' ', 'g'), 70) AS "statement", calls::int AS "calls",
            total_exec_time * 1000 / $1::int AS "us", wal_bytes::float8 / $1::int AS "wal_bytes", wal_records::float8 / $1::int AS "wal_records",
            wal_fpi::float8 / $1::int AS "wal_fpi"
     FROM pg_stat_statements
     WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND calls >= $2::int AND query NOT IN ('BEGIN', 'COMMIT')
     ORDER BY total_exec_time DESC`,
    [events, batches],
  );
  const total = (key: string) => rows.reduce((sum, r: Record<string, number>) => sum + r[key]!, 0);
  console.log(
    `${photos} photos on ${Math.round(seeded.rows[0].pages)} pages (${Math.round(room * 100)}% of each free), ${batches} batches of ${size} vote events on random photos ` +
      `(after as many to warm up); per event:`,
  );
  for (const r of rows) {
    console.log(
      `  ${r.us.toFixed(1).padStart(6)} µs ${r.wal_bytes.toFixed(0).padStart(6)} B WAL (${r.wal_records.toFixed(2)} records, ${r.wal_fpi.toFixed(3)} full pages), ` +
        `${r.calls} calls: ${r.statement}`,
    );
  }
  console.log(
    `  ${total('us').toFixed(1).padStart(6)} µs ${total('wal_bytes').toFixed(0).padStart(6)} B WAL (${total('wal_records').toFixed(2)} records, ${total('wal_fpi').toFixed(3)} full pages) in all; ` +
      `${wallPerEvent.toFixed(1)} µs of wall time per event, BEGIN and COMMIT included`,
  );
  if (walinspect) {
    // This database's records (its relations' blocks), without their full-page images; commit records name no block.
    const [w] = (
      await sql(
        `SELECT count(*)::float8 / $3::int AS "records", sum(record_length - fpi_length)::float8 / $3::int AS "bytes", sum(fpi_length)::float8 / $3::int AS "fpi"
         FROM pg_get_wal_records_info($1::pg_lsn, $2::pg_lsn)
         WHERE block_ref LIKE '%/' || (SELECT oid FROM pg_database WHERE datname = current_database()) || '/%'`,
        [walFrom, walTo, events],
      )
    ).rows;
    console.log(`  WAL of this database's records: ${w.bytes.toFixed(0)} B without full pages (${w.records.toFixed(2)} records) + ${w.fpi.toFixed(0)} B of full pages per event`);
  }

  const repository = new PrismaStatsRepository(db.prisma);
  const exact = JSON.stringify(await repository.communityFigures()) === JSON.stringify(await repository.countFiguresFromRows());
  const stored = await db.pool.query<{ photo_id: string; stars: Stars }>(
    `SELECT photo_id::text, ARRAY[stars_1, stars_2, stars_3, stars_4, stars_5] AS stars FROM stats.photos WHERE photo_id = ANY($1::bigint[])`,
    [[...state.keys()]],
  );
  const starsExact = stored.rows.length === state.size && stored.rows.every((r) => JSON.stringify(r.stars) === JSON.stringify(state.get(Number(r.photo_id))!.stars));
  console.log(`  counters ${exact ? 'exact' : 'WRONG'}, votes per star ${starsExact ? 'exact' : 'WRONG'}`);

  if (explain) {
    // One more batch, each statement explained (which runs it), then rolled back.
    const rolledBack = new Error('explained');
    await inTransaction(db.pool, async (tx) => {
      const explainOne = async (text: string, values: unknown[]) => {
        const plan = await tx.client.query(`EXPLAIN (ANALYZE, BUFFERS, WAL) ${text}`, values);
        console.log(plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n'));
      };
      const explained: SqlClient = {
        $executeRawUnsafe: async (text, ...values) => (await explainOne(text, values), 0),
        $queryRawUnsafe: async <T>(text: string, ...values: unknown[]) => (await explainOne(text, values), [] as T),
      };
      await applyVoteEvents(nextBatch(), new SqlProjectionStore(explained));
      throw rolledBack;
    }).catch((error: unknown) => {
      if (error !== rolledBack) throw error;
    });
  }
  await db.close();
} finally {
  await database.drop();
}
