import type pg from 'pg';

/** A row of `gateway.resumable_uploads`, in the gateway's words. */
export interface ResumableUploadRow {
  id: string;
  userId: string;
  length: number;
  offset: number;
  filename: string;
  createdAt: Date;
  expiresAt: Date;
  /** Set once the whole upload became a photo. */
  photo: { id: number; filename: string } | null;
}

interface Row {
  id: string;
  user_id: string;
  length: number;
  offset: number;
  filename: string;
  created_at: Date;
  expires_at: Date;
  photo_id: string | null;
  photo_filename: string | null;
}

const COLUMNS = `id, user_id, length, "offset", filename, created_at, expires_at, photo_id::text AS photo_id, photo_filename`;

function fromRow(row: Row): ResumableUploadRow {
  return {
    id: row.id,
    userId: row.user_id,
    length: row.length,
    offset: row.offset,
    filename: row.filename,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    photo: row.photo_id === null ? null : { id: Number(row.photo_id), filename: row.photo_filename ?? '' },
  };
}

/** Why a new upload is refused. */
export type BeginRefusal = 'tooManyUnfinished';

/** What finishing an upload found: the photo made before, or the bytes to make it from. */
export type FinishState =
  | { kind: 'missing' }
  | { kind: 'expired' }
  | { kind: 'incomplete'; offset: number; length: number }
  | { kind: 'finished'; photo: { id: number; filename: string } }
  | { kind: 'whole'; upload: ResumableUploadRow };

/**
 * The gateway's `resumable_uploads` and their parts, on the pg pool: the only module that touches them. Every method
 * that acts for a member takes their id, so no request reaches another member's upload. Bytes are appended only from
 * the offset the writer read (a conditional update), so two replicas writing the same upload at once cannot both
 * succeed: the loser's bytes are not kept and it answers 409, as tus asks.
 */
export class ResumableUploadRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** A new upload, unless the member has `maxUnfinished` unfinished ones (counted under their lock, whatever the race). */
  async begin(
    upload: { id: string; userId: string; length: number; filename: string; keepMs: number },
    maxUnfinished: number,
  ): Promise<ResumableUploadRow | BeginRefusal> {
    return this.transaction(async (client) => {
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('resumable-upload:' || $1))`, [upload.userId]);
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM gateway.resumable_uploads WHERE user_id = $1 AND photo_id IS NULL AND expires_at > now()`,
        [upload.userId],
      );
      if ((rows[0]?.n ?? 0) >= maxUnfinished) return 'tooManyUnfinished';
      const inserted = await client.query<Row>(
        `INSERT INTO gateway.resumable_uploads (id, user_id, length, filename, expires_at)
         VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5::double precision / 1000))
         RETURNING ${COLUMNS}`,
        [upload.id, upload.userId, upload.length, upload.filename, upload.keepMs],
      );
      return fromRow(inserted.rows[0]!);
    });
  }

  /** The member's upload, expired or not (the caller tells them apart); null when it is not theirs or is gone. */
  async find(userId: string, id: string): Promise<ResumableUploadRow | null> {
    const { rows } = await this.pool.query<Row>(`SELECT ${COLUMNS} FROM gateway.resumable_uploads WHERE id = $1 AND user_id = $2`, [id, userId]);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /**
   * Appends `bytes` at `offset` to the member's unfinished, unexpired upload. False when the upload's offset is not
   * `offset` any more (another request wrote meanwhile) or it is no longer there to write to.
   */
  async append(userId: string, id: string, offset: number, bytes: Buffer): Promise<boolean> {
    return this.transaction(async (client) => {
      const moved = await client.query(
        `UPDATE gateway.resumable_uploads SET "offset" = "offset" + $4
         WHERE id = $1 AND user_id = $2 AND "offset" = $3 AND "offset" + $4 <= length AND photo_id IS NULL AND expires_at > now()`,
        [id, userId, offset, bytes.byteLength],
      );
      if (moved.rowCount !== 1) return false;
      await client.query(`INSERT INTO gateway.resumable_upload_parts (upload_id, start, bytes) VALUES ($1, $2, $3)`, [id, offset, bytes]);
      return true;
    });
  }

  /** The bytes stored before `end` (at most a few: used to see a file's first bytes when they came in pieces). */
  async head(id: string, end: number): Promise<Buffer> {
    const { rows } = await this.pool.query<{ bytes: Buffer }>(
      `SELECT bytes FROM gateway.resumable_upload_parts WHERE upload_id = $1 AND start < $2 ORDER BY start`,
      [id, end],
    );
    return Buffer.concat(rows.map((row) => row.bytes)).subarray(0, end);
  }

  /** The member's upload and its bytes, gone. False when there was none of theirs. */
  async remove(userId: string, id: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(`DELETE FROM gateway.resumable_uploads WHERE id = $1 AND user_id = $2`, [id, userId]);
    return rowCount === 1;
  }

  /** Every upload past its time, finished or not, and its bytes. */
  async deleteExpired(): Promise<number> {
    const { rowCount } = await this.pool.query(`DELETE FROM gateway.resumable_uploads WHERE expires_at <= now()`);
    return rowCount ?? 0;
  }

  /**
   * Makes the member's whole upload a photo, once: `make` gets the upload and its bytes (read in the pieces they came
   * in) and returns the photo. The upload's row stays locked meanwhile, so a second request for the same upload waits
   * and then answers the same photo instead of making another. When `make` throws, `discard(error)` says whether the
   * upload is deleted (bytes that can never be a photo) or kept for another try.
   */
  async finish(
    userId: string,
    id: string,
    make: (upload: ResumableUploadRow, bytes: AsyncIterable<Buffer>) => Promise<{ id: number; filename: string }>,
    discard: (error: unknown) => boolean,
  ): Promise<Exclude<FinishState, { kind: 'whole' }> | { kind: 'made'; photo: { id: number; filename: string } }> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<Row & { expired: boolean }>(
        `SELECT ${COLUMNS}, expires_at <= now() AS expired FROM gateway.resumable_uploads WHERE id = $1 AND user_id = $2 FOR UPDATE`,
        [id, userId],
      );
      const row = rows[0];
      const state: FinishState = !row
        ? { kind: 'missing' }
        : row.photo_id !== null
          ? { kind: 'finished', photo: fromRow(row).photo! }
          : row.expired
            ? { kind: 'expired' }
            : row.offset < row.length
              ? { kind: 'incomplete', offset: row.offset, length: row.length }
              : { kind: 'whole', upload: fromRow(row) };
      if (state.kind !== 'whole') {
        await client.query('COMMIT');
        return state;
      }
      let photo: { id: number; filename: string };
      try {
        photo = await make(state.upload, this.parts(client, id));
      } catch (error) {
        if (discard(error)) {
          await client.query(`DELETE FROM gateway.resumable_uploads WHERE id = $1`, [id]);
          await client.query('COMMIT');
        } else {
          await client.query('ROLLBACK');
        }
        throw error;
      }
      await client.query(`UPDATE gateway.resumable_uploads SET photo_id = $2, photo_filename = $3 WHERE id = $1`, [id, photo.id, photo.filename]);
      await client.query(`DELETE FROM gateway.resumable_upload_parts WHERE upload_id = $1`, [id]);
      await client.query('COMMIT');
      return { kind: 'made', photo };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** An upload's bytes in order, one stored piece at a time (never the whole file at once). */
  private async *parts(client: pg.PoolClient, id: string): AsyncIterable<Buffer> {
    let from = 0;
    for (;;) {
      const { rows } = await client.query<{ start: number; bytes: Buffer }>(
        `SELECT start, bytes FROM gateway.resumable_upload_parts WHERE upload_id = $1 AND start >= $2 ORDER BY start LIMIT 1`,
        [id, from],
      );
      const part = rows[0];
      if (!part) return;
      if (part.start !== from) throw new Error(`Resumable upload ${id} has a gap at ${from}`);
      yield part.bytes;
      from += part.bytes.byteLength;
    }
  }

  private async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}
