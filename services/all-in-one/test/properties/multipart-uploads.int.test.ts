import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeKey } from './route-catalog.js';
import { describeChanges, type Snapshot } from './state-snapshot.js';
import { propertyParameters, startPropertySystem } from './property-system.js';
import { encodeUpload, uploadArbitrary, type MultipartUpload } from './multipart.js';
import { fileChanges, settledFiles } from './stored-files.js';

/**
 * Issue 18 §3, the uploads: multipart bodies generated lightly — descriptions with control characters, at and over
 * their limit, parts in either order, the file under another name, a second file, extra fields, odd boundaries and
 * bodies cut short — sent to the photo and avatar uploads by someone signed out, members and an admin. Never a 5xx,
 * always within the upload's deadline; after a 4xx nothing is stored: not a row (state-snapshot.ts) and not a file.
 *
 * Replay a failure with PROPERTY_SEED=<seed> PROPERTY_PATH=<path>; PROPERTY_RUNS sets the runs per route (40).
 */

/** The uploads, each with the name of its file part and whether it takes a description. */
const UPLOADS = [
  { method: 'POST', url: '/api/photos', fileField: 'photo', describedOften: true },
  { method: 'POST', url: '/api/profile/avatar', fileField: 'avatar', describedOften: false },
] as const;
/** Well inside an upload's own deadline (120 s): the files here are a few kilobytes. */
const DEADLINE_MS = 30_000;

const { system, routes, snapshots, world, stop } = await startPropertySystem();
const blobs = `${system.platform.dataDir}/uploads`;
let before: { state: Snapshot; files: string[] };
const statuses = new Map<string, Map<number, number>>();

beforeAll(async () => {
  before = { state: await snapshots.settled(), files: await settledFiles(blobs) };
});
afterAll(async () => {
  for (const [route, counts] of statuses) console.log(`${route}: ${[...counts].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`).join(' ')}`);
  await stop();
});

describe('multipart uploads, generated', () => {
  it('are routes the running gateway serves', () => {
    const served = new Set(routes.map(routeKey));
    for (const upload of UPLOADS) expect(served).toContain(routeKey(upload));
  });

  it.each(UPLOADS.map((upload) => [routeKey(upload), upload] as const))(
    '%s: never a 5xx, within its deadline, nothing stored after a 4xx',
    async (key, upload) => {
      const counts = new Map<number, number>();
      statuses.set(key, counts);
      const requests = fc.record({ caller: fc.nat({ max: world.callers.length - 1 }), upload: uploadArbitrary(upload.fileField, upload) });
      const property = fc.asyncProperty(requests, async (request) => {
        const caller = world.callers[request.caller]!;
        const { contentType, body } = encodeUpload(request.upload);
        const started = Date.now();
        const response = await caller.request(`${system.url}${upload.url}`, {
          method: upload.method,
          ...(contentType === null ? {} : { headers: { 'content-type': contentType } }),
          body,
          signal: AbortSignal.timeout(DEADLINE_MS + 5_000),
        });
        const answer = await response.text();
        const elapsed = Date.now() - started;
        counts.set(response.status, (counts.get(response.status) ?? 0) + 1);
        const what = `${caller.name}: ${describeUpload(request.upload)} → ${response.status} ${answer.slice(0, 200)}`;
        expect(response.status, what).toBeLessThan(500);
        expect(elapsed, what).toBeLessThan(DEADLINE_MS);

        const after = { state: await snapshots.settled(before.state), files: await settledFiles(blobs) };
        const changes = { rows: describeChanges(before.state, after.state), files: fileChanges(before.files, after.files) };
        before = after;
        if (response.status >= 400) expect(changes, `${what} stored something`).toEqual({ rows: '', files: '' });
        else {
          await world.repair();
          before = { state: await snapshots.settled(), files: await settledFiles(blobs) };
        }
      });
      await fc.assert(property, propertyParameters<{ caller: number; upload: MultipartUpload }>());
    },
    180_000,
  );
});

/** The upload in a line: its parts in order, its header and how much of it was sent. */
function describeUpload(upload: MultipartUpload): string {
  const parts = upload.parts.map((part) => {
    const content = typeof part.content === 'string' ? part.content : 'text' in part.content ? JSON.stringify(part.content.text.slice(0, 60)) : `${part.content.bytes.length} bytes`;
    return `${part.name}${part.filename === null ? '' : `(${part.filename.slice(0, 40)}, ${part.contentType})`}=${content}`;
  });
  return `[${parts.join('; ')}] ${upload.header}${upload.kept < 1 ? `, ${Math.round(upload.kept * 100)}% sent` : ''}`;
}
