import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import { DATA_EXPORT, routes, type DataExport } from '@snapcracks/http-contract';
import type { Clients } from '../clients.js';
import { contractRoutes } from '../contract-route.js';
import { HttpError } from '../http-errors.js';
import type { DataExportRepository, DataExportRow } from '../data-export/data-export.repository.js';
import type { DataExportRunner } from '../data-export/data-export.runner.js';
import { downloadName } from '../data-export/export-layout.js';
import { openBlob } from './images.routes.js';

/** What the routes need of the exports: the member's own rows, and the runner to wake and to discard with. */
export interface DataExports {
  store: Pick<DataExportRepository, 'request' | 'latest' | 'ready' | 'withFiles'>;
  runner: Pick<DataExportRunner, 'wake' | 'discard'>;
}

const HOUR_MS = 60 * 60 * 1000;
/** A 2 GB download over a slow line: the stream from storage may take this long. */
const DOWNLOAD_DEADLINE_MS = 2 * HOUR_MS;
const DOWNLOAD_URL = routes.downloadDataExport.path;

/** An export as its member reads it; a ready one past its time is expired already (the sweep deletes its file soon). */
export function toDataExportJson(row: DataExportRow, now = new Date()): DataExport {
  const status = row.status === 'ready' && row.expiresAt && row.expiresAt <= now ? 'expired' : row.status;
  const inProgress = status === 'queued' || status === 'running';
  return {
    id: row.id,
    status,
    progress: status === 'ready' ? 100 : row.progress,
    step: inProgress ? row.step : null,
    size: status === 'ready' ? row.size : null,
    error: status === 'failed' ? row.error : null,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    downloadUrl: status === 'ready' ? DOWNLOAD_URL : null,
  };
}

/**
 * "Your data": a member asks for a zip of their account, watches it being made, downloads it and may discard it. Every
 * route reads the caller's own exports by their user id; no id ever comes from the request, so nobody reaches another
 * member's copy. The work itself is the runner's (data-export/).
 */
export default async function dataExportRoutes(app: FastifyInstance, { clients, exports }: { clients: Clients; exports: DataExports }) {
  const serve = contractRoutes(app);

  serve(routes.requestDataExport, async (request, reply) => {
    const caller = await request.requireMember();
    const result = await exports.store.request(caller.userId, { maxPerWindow: DATA_EXPORT.maxPerWindow, windowMs: DATA_EXPORT.windowHours * HOUR_MS });
    if (result === 'inProgress') throw new HttpError(409, DATA_EXPORT.inProgress);
    if (result === 'tooMany') throw new HttpError(429, DATA_EXPORT.tooMany);
    exports.runner.wake();
    reply.header('cache-control', 'no-store');
    return reply.code(202).send(toDataExportJson(result));
  });

  serve(routes.dataExport, async (request, reply) => {
    const caller = await request.requireMember();
    const latest = await exports.store.latest(caller.userId);
    reply.header('cache-control', 'private, no-store');
    if (!latest) return null;
    const shown = toDataExportJson(latest);
    // Past its time and not swept yet: the runner deletes the file now rather than at its next pass.
    if (shown.status === 'expired' && latest.status === 'ready') exports.runner.wake();
    return shown;
  });

  serve(routes.downloadDataExport, async (request, reply) => {
    const caller = await request.requireMember();
    const ready = await exports.store.ready(caller.userId);
    if (!ready?.blobKey || !ready.finishedAt) throw new HttpError(404, DATA_EXPORT.notReady);
    const { info, bytes } = await openBlob(clients, ready.blobKey, DOWNLOAD_DEADLINE_MS);
    reply
      .type('application/zip')
      .header('content-length', String(info.size))
      .header('content-disposition', `attachment; filename="${downloadName(ready.finishedAt)}"`)
      .header('cache-control', 'private, no-store');
    return reply.send(Readable.from(bytes));
  });

  serve(routes.deleteDataExport, async (request, reply) => {
    const caller = await request.requireMember();
    const latest = await exports.store.latest(caller.userId);
    if (latest && (latest.status === 'queued' || latest.status === 'running')) throw new HttpError(409, DATA_EXPORT.inProgress);
    await exports.runner.discard(await exports.store.withFiles(caller.userId));
    return reply.code(204).send();
  });
}
