/**
 * The gallery benchmark's two anchors, in a process of their own (started by scripts/bench/gallery.ts, so they never
 * share an event loop with the load generator or the product), on the same database as the product:
 *
 * - the ceiling: a plain Fastify route answering a fixed top-rated page (built once at start with the monolith's own
 *   query, so the bytes have the product's shape and size): what Node and Fastify cost with no work at all;
 * - the monolith: one Fastify process with a pg pool (10 connections, as the photo and vote services each have) that
 *   runs the gallery's queries directly, the naive-but-sensible way: the page over photos joined with their rating
 *   totals (photo.ratings) and uploaders, ORDER BY … LIMIT/OFFSET on the same partial indexes, and the total as a
 *   COUNT over the photos, both at once on
 *   the pool; need-your-vote with NOT EXISTS over the votes; the stats strip as direct aggregates; a vote as one
 *   statement. No cache, no gRPC, no events. The member comes from an `x-user-id` header: the monolith skips the
 *   session lookup the product makes, which flatters the monolith.
 *
 * - the tuned monolith: the same process and queries as a careful single-process app would write them, each page and its
 *   total in one prepared statement, the totals from counter rows instead of a COUNT per request: the approved photos
 *   (`bench_monolith.counters`) and, per member, their approved photos and their votes on others' approved photos
 *   (`bench_monolith.member_counts`), made by the benchmark from the tables.
 *
 * Votes go to copies of the votes and the photos' totals (schema `bench_monolith`, made by the benchmark), so the
 * seeded read models stay consistent for the product.
 *
 * Prints `listening <port>` once ready; stops on SIGTERM.
 */
import { createRequire } from 'node:module';
import { pg } from '../seed/db.js';

const fastify = createRequire(new URL('../../gateway/package.json', import.meta.url))('fastify') as typeof import('fastify').default;

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL is required');
const pool = new pg.Pool({ connectionString: databaseUrl, max: Number(process.env.POOL_SIZE ?? 10) });

// The orders by rating on the ratings rows' partial indexes (ratings_gallery_*, over rows whose approved_at is set),
// the newest on the photos' (photos_gallery_newest).
const ORDER = {
  top_rated: `r."score" DESC, r."vote_count" DESC, r."approved_at" DESC, r."photo_id" DESC`,
  fewest_votes: `r."vote_count" ASC, r."approved_at" DESC, r."photo_id" DESC`,
  newest: `p."approved_at" DESC, p."id" DESC`,
};

const COLUMNS = `p."id", p."user_id", p."filename", p."description", r."rating_sum", r."vote_count", p."created_at", p."approved_at",
  p."width", p."height", p."image_version", u."id" AS "uploader_id", u."first_name", u."last_name", u."display_name",
  u."profile_image_url", u."custom_profile_image"`;

interface Row {
  id: number;
  user_id: string;
  filename: string;
  description: string | null;
  rating_sum: number;
  vote_count: number;
  created_at: Date;
  approved_at: Date | null;
  width: number | null;
  height: number | null;
  image_version: number;
  uploader_id: string | null;
  first_name: string | null;
  last_name: string | null;
  display_name: string | null;
  profile_image_url: string | null;
  custom_profile_image: string | null;
}

const imageUrl = (filename: string, size: string, version: number) => `/api/uploads/${encodeURIComponent(filename)}?size=${size}&v=${version}`;

/** The gateway's GalleryPhotoJson, field for field. */
function toJson(row: Row) {
  return {
    id: row.id,
    userId: row.user_id,
    filename: row.filename,
    description: row.description,
    status: 'approved',
    averageRating: row.vote_count > 0 ? row.rating_sum / row.vote_count : 0,
    voteCount: row.vote_count,
    createdAt: row.created_at.toISOString(),
    approvedAt: row.approved_at?.toISOString() ?? null,
    width: row.width ?? 0,
    height: row.height ?? 0,
    imageVersion: row.image_version,
    thumbnailUrl: imageUrl(row.filename, 'thumb', row.image_version),
    mediumUrl: imageUrl(row.filename, 'medium', row.image_version),
    displayUrl: imageUrl(row.filename, 'display', row.image_version),
    user: row.uploader_id
      ? {
          id: row.uploader_id,
          firstName: row.first_name,
          lastName: row.last_name,
          displayName: row.display_name,
          profileImageUrl: row.profile_image_url,
          customProfileImage: row.custom_profile_image,
        }
      : null,
  };
}

/** A page and its total, both straight from the tables, at once on the pool. */
async function page(where: string, order: string, values: unknown[], pageNumber: number, limit: number) {
  const n = values.length;
  const [rows, total] = await Promise.all([
    pool.query<Row>(
      `SELECT ${COLUMNS} FROM "photo"."photos" p JOIN "photo"."ratings" r ON r."photo_id" = p."id" LEFT JOIN "photo"."uploaders" u ON u."id" = p."user_id"
       WHERE ${where} AND r."approved_at" IS NOT NULL ORDER BY ${order} LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...values, limit, (pageNumber - 1) * limit],
    ),
    pool.query<{ total: string }>(`SELECT COUNT(*) AS "total" FROM "photo"."photos" p WHERE ${where}`, values),
  ]);
  const count = Number(total.rows[0]!.total);
  return { photos: rows.rows.map(toJson), total: count, totalPages: Math.ceil(count / limit) };
}

/** Monday 00:00 UTC of this week, as the product's new-this-week window. */
function weekStart(now = new Date()): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - ((now.getUTCDay() + 6) % 7) * 86_400_000);
}

/** The gallery's page size (GALLERY.pageSize), which the benchmark's requests use. */
const PAGE_SIZE = 9;

const query = (raw: unknown) => {
  const q = raw as { page?: string; limit?: string };
  return { page: Number(q.page ?? 1) || 1, limit: Number(q.limit ?? PAGE_SIZE) || PAGE_SIZE };
};

const app = fastify({ logger: false });
let ceiling = '';

app.get('/ceiling', async (_request, reply) => reply.type('application/json; charset=utf-8').send(ceiling));

app.get('/monolith/gallery/top-rated', async (request) => {
  const { page: p, limit } = query(request.query);
  return page(`p."status" = 'approved'`, ORDER.top_rated, [], p, limit);
});

app.get('/monolith/gallery/new-this-week', async (request) => {
  const { page: p, limit } = query(request.query);
  return page(`p."status" = 'approved' AND p."approved_at" >= $1`, ORDER.newest, [weekStart()], p, limit);
});

app.get('/monolith/gallery/need-your-vote', async (request, reply) => {
  const userId = request.headers['x-user-id'];
  if (typeof userId !== 'string') return reply.code(401).send({ message: 'x-user-id' });
  const { page: p, limit } = query(request.query);
  return page(
    `p."status" = 'approved' AND p."user_id" <> $1 AND NOT EXISTS (SELECT 1 FROM "vote"."photo_votes" v WHERE v."photo_id" = p."id" AND v."user_id" = $1)`,
    ORDER.fewest_votes,
    [userId],
    p,
    limit,
  );
});

// The stats strip as direct aggregates over the tables, as the gallery shows it: approved photos, votes on them,
// approved photos averaging four stars or more, members with an approved photo.
app.get('/monolith/stats/gallery', async () => {
  const { rows } = await pool.query<{ photo_count: string; total_votes: string; rated_four_or_higher: string; distinct_uploaders: string }>(
    `SELECT COUNT(*) AS "photo_count", COALESCE(SUM(r."vote_count"), 0) AS "total_votes",
            COUNT(*) FILTER (WHERE r."vote_count" > 0 AND r."rating_sum" >= 4 * r."vote_count") AS "rated_four_or_higher",
            COUNT(DISTINCT p."user_id") AS "distinct_uploaders"
     FROM "photo"."photos" p JOIN "photo"."ratings" r ON r."photo_id" = p."id" WHERE p."status" = 'approved'`,
  );
  const r = rows[0]!;
  return {
    photoCount: Number(r.photo_count),
    totalVotes: Number(r.total_votes),
    ratedFourOrHigher: Number(r.rated_four_or_higher),
    distinctUploaders: Number(r.distinct_uploaders),
  };
});

// The tuned monolith: page and total in one prepared statement, the total from counter rows. The first page in the
// web app's size is a statement of its own with its window written in, so that PostgreSQL keeps one plan for it (as
// the product's gallery does); other pages take the window as $1 and $2 and are planned per call.
const TUNED_PAGE = (where: string, order: string, total: string) => (window: string, first: boolean) => `
  SELECT (${total}) AS "total", page.* FROM (SELECT 1) AS one LEFT JOIN (
    SELECT ${COLUMNS} FROM "photo"."photos" p JOIN "photo"."ratings" r ON r."photo_id" = p."id" LEFT JOIN "photo"."uploaders" u ON u."id" = p."user_id"
    WHERE ${where} AND r."approved_at" IS NOT NULL ORDER BY ${order} ${window}) AS page ON true`.replaceAll('$viewer', first ? '$1' : '$3');
const APPROVED = `SELECT "approved" FROM "bench_monolith"."counters"`;
const TUNED_TOP_RATED = TUNED_PAGE(`p."status" = 'approved'`, ORDER.top_rated, APPROVED);
const TUNED_NEED_YOUR_VOTE = TUNED_PAGE(
  `p."status" = 'approved' AND p."user_id" <> $viewer AND NOT EXISTS (SELECT 1 FROM "vote"."photo_votes" v WHERE v."photo_id" = p."id" AND v."user_id" = $viewer)`,
  ORDER.fewest_votes,
  `GREATEST(0, (${APPROVED}) - COALESCE((SELECT "owned" + "rated" FROM "bench_monolith"."member_counts" WHERE "user_id" = $viewer), 0))`,
);

async function tunedPage(name: string, text: (window: string, first: boolean) => string, values: unknown[], pageNumber: number, limit: number) {
  const first = pageNumber === 1 && limit === PAGE_SIZE;
  const { rows } = await pool.query<Row & { total: string }>(
    first
      ? { name: `${name}:first`, text: text(`LIMIT ${PAGE_SIZE} OFFSET 0`, true), values }
      : { name, text: text('LIMIT $1 OFFSET $2', false), values: [limit, (pageNumber - 1) * limit, ...values] },
  );
  const count = Number(rows[0]?.total ?? 0);
  return { photos: rows.filter((row) => row.id !== null).map(toJson), total: count, totalPages: Math.ceil(count / limit) };
}

app.get('/tuned/gallery/top-rated', async (request) => {
  const { page: p, limit } = query(request.query);
  return tunedPage('top-rated', TUNED_TOP_RATED, [], p, limit);
});

app.get('/tuned/gallery/need-your-vote', async (request, reply) => {
  const userId = request.headers['x-user-id'];
  if (typeof userId !== 'string') return reply.code(401).send({ message: 'x-user-id' });
  const { page: p, limit } = query(request.query);
  return tunedPage('need-your-vote', TUNED_NEED_YOUR_VOTE, [userId], p, limit);
});

// One statement: the photo locked (votes on it queue), the vote upserted keeping the rating it replaced, the totals
// moved by the difference.
const VOTE_SQL = `
  WITH photo AS (
    SELECT "id" FROM "bench_monolith"."photos" WHERE "id" = $1 AND "status" = 'approved' AND "user_id" <> $2 FOR UPDATE
  ), cast_vote AS (
    INSERT INTO "bench_monolith"."photo_votes" AS v ("photo_id", "user_id", "rating", "previous_rating")
    SELECT "id", $2, $3, NULL FROM photo
    ON CONFLICT ("photo_id", "user_id") DO UPDATE SET "rating" = EXCLUDED."rating", "previous_rating" = v."rating", "updated_at" = now()
    RETURNING v."rating", v."previous_rating"
  )
  UPDATE "bench_monolith"."photos" p
  SET "vote_count" = p."vote_count" + CASE WHEN c."previous_rating" IS NULL THEN 1 ELSE 0 END,
      "rating_sum" = p."rating_sum" + c."rating" - COALESCE(c."previous_rating", 0)
  FROM cast_vote c WHERE p."id" = $1
  RETURNING c."rating", p."vote_count", p."rating_sum"`;

app.post('/monolith/photos/:id/vote', async (request, reply) => {
  const userId = request.headers['x-user-id'];
  const rating = (request.body as { rating?: unknown } | undefined)?.rating;
  const id = Number((request.params as { id: string }).id);
  if (typeof userId !== 'string' || !Number.isInteger(rating) || (rating as number) < 1 || (rating as number) > 5 || !Number.isInteger(id)) {
    return reply.code(400).send({ message: 'bad vote' });
  }
  const { rows } = await pool.query<{ rating: number; vote_count: number; rating_sum: number }>({ name: 'vote', text: VOTE_SQL, values: [id, userId, rating] });
  const row = rows[0];
  if (!row) return reply.code(404).send({ message: 'Photo not found' });
  return { rating: row.rating, averageRating: row.rating_sum / row.vote_count, voteCount: row.vote_count };
});

// The ceiling's fixed page: the monolith's top-rated page 1, serialized once.
ceiling = JSON.stringify(await page(`p."status" = 'approved'`, ORDER.top_rated, [], 1, 9));
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`listening ${new URL(address).port}\n`);

process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => pool.end())
    .finally(() => process.exit(0));
});
