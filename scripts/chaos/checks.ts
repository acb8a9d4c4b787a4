/**
 * What must hold once the faults are over, read straight from the owners' tables and the blob store: every read model
 * equals a count over the rows it derives from (the seed's own checks, scripts/seed/verify.ts), every outbox event was
 * published, no vote is counted twice, every photo row has its blobs, and no blob outlives an orphan cleanup.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { verifyDatabase, type Check } from '../seed/verify.js';
import { withClient } from '../seed/db.js';
import type { Session } from './load.js';
import { sleep } from './timing.js';

/**
 * Not a read model an event keeps: the photo service recomputes the top-rated prior from the ratings every 10 minutes
 * (services/photo/src/index.ts), so right after a burst of votes it lags by design. The scores it feeds are checked.
 */
const PERIODIC = /^photo\.gallery_prior mean/;

/** Every read model against its sources; waits (at most `timeoutMs`) for events in flight to land. */
export async function settledChecks(databaseUrl: string, timeoutMs: number): Promise<{ failed: Check[]; settledMs: number }> {
  const started = Date.now();
  let failed: Check[] = [];
  while (Date.now() - started < timeoutMs) {
    failed = (await verifyDatabase(databaseUrl)).filter((check) => !check.ok && !PERIODIC.test(check.name));
    if (failed.length === 0 && (await unpublishedEvents(databaseUrl)) === 0) break;
    await sleep(1_000);
  }
  return { failed, settledMs: Date.now() - started };
}

/** Outbox rows of every schema not yet handed to NATS. */
export async function unpublishedEvents(databaseUrl: string): Promise<number> {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ table_schema: string }>(`SELECT table_schema FROM information_schema.tables WHERE table_name = 'outbox'`);
    let total = 0;
    for (const { table_schema: schema } of rows) {
      const { rows: counted } = await client.query<{ n: string }>(`SELECT COUNT(*) AS n FROM "${schema}"."outbox" WHERE "published_at" IS NULL`);
      total += Number(counted[0]!.n);
    }
    return total;
  });
}

/** Outbox rows written since `since`, across every schema: the events a write made while NATS was away. */
export async function eventsSince(databaseUrl: string, since: Date): Promise<number> {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ table_schema: string }>(`SELECT table_schema FROM information_schema.tables WHERE table_name = 'outbox'`);
    let total = 0;
    for (const { table_schema: schema } of rows) {
      const { rows: counted } = await client.query<{ n: string }>(`SELECT COUNT(*) AS n FROM "${schema}"."outbox" WHERE "created_at" >= $1`, [since]);
      total += Number(counted[0]!.n);
    }
    return total;
  });
}

/** (member, photo) pairs with more than one vote row: one would be counted twice. */
export async function duplicateVotes(databaseUrl: string): Promise<number> {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ n: string }>(
      `SELECT COUNT(*) AS n FROM (SELECT 1 FROM "vote"."photo_votes" GROUP BY "user_id", "photo_id" HAVING COUNT(*) > 1) d`,
    );
    return Number(rows[0]!.n);
  });
}

/** The photo paths (without the `type:` prefix) a blob store holds. */
export type BlobLister = () => Promise<Set<string>>;

export function localBlobLister(dir: string): BlobLister {
  return async () => {
    const found = new Set<string>();
    const walk = (at: string) => {
      let entries: string[];
      try {
        entries = readdirSync(at);
      } catch {
        return;
      }
      for (const entry of entries) {
        const path = join(at, entry);
        if (statSync(path).isDirectory()) walk(path);
        else found.add(relative(dir, path).split('\\').join('/'));
      }
    };
    walk(dir);
    return new Set([...found].filter((path) => path.startsWith('photos/') && !path.includes('.tmp')));
  };
}

export interface BlobState {
  photos: number;
  /** Photo rows with an image key that has no blob row or no bytes in the store. */
  photosWithoutBlobs: number;
  /** Blob rows no photo uses. */
  unreferencedRows: number;
  /** Bytes in the store with no blob row. */
  bytesWithoutRow: number;
}

export async function blobState(databaseUrl: string, list: BlobLister): Promise<BlobState> {
  const stored = await list();
  return withClient(databaseUrl, async (client) => {
    const { rows: photos } = await client.query<{ id: number; keys: string[] }>(
      `SELECT "id", ARRAY["original_key", "display_key", "medium_key", "thumbnail_key"] AS keys FROM "photo"."photos"`,
    );
    const { rows: blobs } = await client.query<{ key: string }>(`SELECT "key" FROM "storage"."blobs" WHERE "key" ~ '^[a-z0-9]+:photos/'`);
    const blobKeys = new Set(blobs.map((b) => b.key));
    const pathOf = (key: string) => key.slice(key.indexOf(':') + 1);
    const blobPaths = new Set([...blobKeys].map(pathOf));
    const referenced = new Set(photos.flatMap((p) => p.keys));
    return {
      photos: photos.length,
      photosWithoutBlobs: photos.filter((p) => p.keys.some((key) => !key || !blobKeys.has(key) || !stored.has(pathOf(key)))).length,
      unreferencedRows: [...blobKeys].filter((key) => !referenced.has(key)).length,
      bytesWithoutRow: [...stored].filter((path) => !blobPaths.has(path)).length,
    };
  });
}

/**
 * The admin's orphan cleanup, with every blob made two hours old first (the cleanup keeps blobs younger than an
 * hour, as an upload in flight writes its blobs before its photo row): afterwards no blob may be left unused.
 */
export async function runOrphanCleanup(url: string, admin: Session, databaseUrl: string): Promise<{ status: number; message: string }> {
  await withClient(databaseUrl, (client) => client.query(`UPDATE "storage"."blobs" SET "created_at" = "created_at" - interval '2 hours'`));
  const response = await fetch(`${url}/api/admin/cleanup/orphaned`, { method: 'POST', headers: { cookie: admin.cookie, origin: url }, signal: AbortSignal.timeout(70_000) });
  const body = (await response.json().catch(() => ({}))) as { message?: string };
  return { status: response.status, message: body.message ?? '' };
}
