import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { DataExportStatus } from '@snapcracks/http-contract';

/** A row of `gateway.data_exports`, in the gateway's words. */
export interface DataExportRow {
  id: string;
  userId: string;
  status: DataExportStatus;
  progress: number;
  step: string | null;
  blobKey: string | null;
  size: number | null;
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
  expiresAt: Date | null;
  attempts: number;
}

interface Row {
  id: string;
  user_id: string;
  status: DataExportStatus;
  progress: number;
  step: string | null;
  blob_key: string | null;
  size: string | null;
  error: string | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
  expires_at: Date | null;
  attempts: number;
}

const COLUMNS = `id, user_id, status, progress, step, blob_key, size::text AS size, error, created_at, updated_at, finished_at, expires_at, attempts`;

function fromRow(row: Row): DataExportRow {
  return {
    id: row.id,
    userId: row.user_id,
    status: row.status,
    progress: row.progress,
    step: row.step,
    blobKey: row.blob_key,
    size: row.size === null ? null : Number(row.size),
    error: row.error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
    expiresAt: row.expires_at,
    attempts: row.attempts,
  };
}

/** Why a request for a new export is refused. */
export type RequestRefusal = 'inProgress' | 'tooMany';

/** PostgreSQL's unique violation: the partial index allows one queued or running export per member. */
const UNIQUE_VIOLATION = '23505';

/**
 * The gateway's `data_exports` table, on the pg pool (as sessions are read): the only module that touches it. Every
 * method that acts for a member takes their id, so no caller can reach another member's export; the runner's writes
 * name the runner that claimed the export, so one that lost its claim changes nothing.
 */
export class DataExportRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * A new queued export for the member, unless one is queued or running (the partial unique index decides, whatever
   * the race) or they asked for `maxPerWindow` within `windowMs` already.
   */
  async request(userId: string, limits: { maxPerWindow: number; windowMs: number }): Promise<DataExportRow | RequestRefusal> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // One member's requests queue here, so two at once cannot both pass the count.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`data-export:${userId}`]);
      const { rows: open } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM gateway.data_exports WHERE user_id = $1 AND status IN ('queued', 'running')`,
        [userId],
      );
      if (open[0]!.n > 0) {
        await client.query('ROLLBACK');
        return 'inProgress';
      }
      const { rows: recent } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM gateway.data_exports WHERE user_id = $1 AND created_at > now() - make_interval(secs => $2)`,
        [userId, limits.windowMs / 1000],
      );
      if (recent[0]!.n >= limits.maxPerWindow) {
        await client.query('ROLLBACK');
        return 'tooMany';
      }
      const { rows } = await client.query<Row>(
        `INSERT INTO gateway.data_exports (id, user_id, status) VALUES ($1, $2, 'queued') RETURNING ${COLUMNS}`,
        [randomUUID(), userId],
      );
      await client.query('COMMIT');
      return fromRow(rows[0]!);
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) return 'inProgress';
      throw error;
    } finally {
      client.release();
    }
  }

  /** The member's latest export, or null. */
  async latest(userId: string): Promise<DataExportRow | null> {
    const { rows } = await this.pool.query<Row>(
      `SELECT ${COLUMNS} FROM gateway.data_exports WHERE user_id = $1 ORDER BY created_at DESC, id LIMIT 1`,
      [userId],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /** The member's newest copy that is ready and not past its time, or null. */
  async ready(userId: string): Promise<DataExportRow | null> {
    const { rows } = await this.pool.query<Row>(
      `SELECT ${COLUMNS} FROM gateway.data_exports WHERE user_id = $1 AND status = 'ready' AND expires_at > now() AND blob_key IS NOT NULL
        ORDER BY created_at DESC LIMIT 1`,
      [userId],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /**
   * Takes the oldest export waiting: queued, or running under a runner whose heartbeat is older than `staleMs` (it
   * died). SKIP LOCKED: replicas claiming at once each get another. One already claimed `maxAttempts` times fails
   * instead (`onGiveUp` says with what), so an export that kills its runner cannot go round for ever.
   */
  async claim(runner: string, options: { staleMs: number; maxAttempts: number; step: string; gaveUp: string }): Promise<DataExportRow | null> {
    await this.pool.query(
      `UPDATE gateway.data_exports SET status = 'failed', error = $3, step = NULL, finished_at = now(), updated_at = now()
        WHERE status = 'running' AND updated_at < now() - make_interval(secs => $1) AND attempts >= $2`,
      [options.staleMs / 1000, options.maxAttempts, options.gaveUp],
    );
    const { rows } = await this.pool.query<Row>(
      `UPDATE gateway.data_exports SET status = 'running', runner = $1, attempts = attempts + 1, progress = 0, step = $3, updated_at = now()
        WHERE id = (
          SELECT id FROM gateway.data_exports
           WHERE status = 'queued' OR (status = 'running' AND updated_at < now() - make_interval(secs => $2))
           ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING ${COLUMNS}`,
      [runner, options.staleMs / 1000, options.step],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /** The runner's progress, which is also its heartbeat; false when the export is no longer this runner's. */
  async progress(id: string, runner: string, progress: number, step: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE gateway.data_exports SET progress = $3, step = $4, updated_at = now() WHERE id = $1 AND runner = $2 AND status = 'running'`,
      [id, runner, progress, step],
    );
    return rowCount === 1;
  }

  /** Ready to download for `keepMs` from now; false when the export is no longer this runner's. */
  async finish(id: string, runner: string, done: { blobKey: string; size: number; keepMs: number }): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE gateway.data_exports SET status = 'ready', progress = 100, step = NULL, blob_key = $3, size = $4, finished_at = now(),
              expires_at = now() + make_interval(secs => $5), updated_at = now()
        WHERE id = $1 AND runner = $2 AND status = 'running'`,
      [id, runner, done.blobKey, done.size, done.keepMs / 1000],
    );
    return rowCount === 1;
  }

  async fail(id: string, runner: string, error: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE gateway.data_exports SET status = 'failed', step = NULL, error = $3, finished_at = now(), updated_at = now()
        WHERE id = $1 AND runner = $2 AND status = 'running'`,
      [id, runner, error],
    );
    return rowCount === 1;
  }

  /** Hands an export back to the queue at once (its runner is stopping), for another replica to take. */
  async release(id: string, runner: string): Promise<void> {
    await this.pool.query(
      `UPDATE gateway.data_exports SET status = 'queued', runner = NULL, attempts = greatest(attempts - 1, 0), progress = 0, step = NULL, updated_at = now()
        WHERE id = $1 AND runner = $2 AND status = 'running'`,
      [id, runner],
    );
  }

  /** Ready exports whose time is up (the sweep deletes their files, then `expire`s them). */
  async due(limit = 100): Promise<DataExportRow[]> {
    const { rows } = await this.pool.query<Row>(
      `SELECT ${COLUMNS} FROM gateway.data_exports WHERE status = 'ready' AND expires_at <= now() ORDER BY expires_at LIMIT $1`,
      [limit],
    );
    return rows.map(fromRow);
  }

  /** Its file is gone: expired, and nothing left to download. */
  async expire(id: string): Promise<void> {
    await this.pool.query(
      `UPDATE gateway.data_exports SET status = 'expired', blob_key = NULL, expires_at = least(expires_at, now()), updated_at = now()
        WHERE id = $1 AND status IN ('ready', 'failed', 'expired')`,
      [id],
    );
  }

  /** The member's exports that still name a file (ready, or failed with one), for discarding. */
  async withFiles(userId: string): Promise<DataExportRow[]> {
    const { rows } = await this.pool.query<Row>(
      `SELECT ${COLUMNS} FROM gateway.data_exports WHERE user_id = $1 AND blob_key IS NOT NULL AND status IN ('ready', 'failed', 'expired')`,
      [userId],
    );
    return rows.map(fromRow);
  }

  /** Every export of an account that no longer exists, with the files they name (the caller deletes those first). */
  async ofUser(userId: string): Promise<DataExportRow[]> {
    const { rows } = await this.pool.query<Row>(`SELECT ${COLUMNS} FROM gateway.data_exports WHERE user_id = $1`, [userId]);
    return rows.map(fromRow);
  }

  async forgetUser(userId: string): Promise<void> {
    await this.pool.query(`DELETE FROM gateway.data_exports WHERE user_id = $1`, [userId]);
  }
}
