import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { status } from '@grpc/grpc-js';
import yazl from 'yazl';
import { DATA_EXPORT, PAGES } from '@snapcracks/http-contract';
import { chunksOf, isServiceError, type Caller } from '@snapcracks/kit';
import type { User } from '@snapcracks/proto/auth/v1';
import type { Report } from '@snapcracks/proto/moderation/v1';
import type { Clients } from '../clients.js';
import { toPhotoJson } from '../photo-json.js';
import { toCaller } from '../plugins/current-user.js';
import { toUserJson } from '../routes/auth.routes.js';
import { toContactFormJson } from '../routes/contact.routes.js';
import { openBlob, resolveImage } from '../routes/images.routes.js';
import { toReportJson } from '../routes/reports.routes.js';
import { FILES, PHOTO_FILES, jsonFile, percentDone, photoFilePath, readme, type PhotoFileName } from './export-layout.js';

/** What the member sees while their copy is made (the step of GET /api/user/data-export). */
export const STEPS = {
  starting: 'Starting',
  profile: 'Reading your profile',
  photos: 'Listing your photos',
  votes: 'Reading your votes',
  reports: 'Reading your reports',
  messages: 'Reading your messages',
  files: (at: number, of: number) => `Copying photo ${at} of ${of}`,
  lists: 'Writing your lists',
  storing: 'Saving your copy',
} as const;

/** Streams a file of the zip from storage within this long. */
const BLOB_DEADLINE_MS = 120_000;
/** The whole zip is stored within this long (a member with thousands of photos). */
const STORE_DEADLINE_MS = 60 * 60 * 1000;
const LIST_DEADLINE_MS = 30_000;
const CHUNK_BYTES = 64 * 1024;

/** Reports progress (and so the heartbeat); rejects when the export is no longer this runner's. */
export type ProgressSink = (percent: number, step: string) => Promise<void>;

export interface ExportRequest {
  exportId: string;
  user: User;
  madeAt: Date;
  progress: ProgressSink;
  /** Aborted when the runner stops or loses the export. */
  signal: AbortSignal;
  maxBytes?: number;
}

/**
 * Gathers everything the product holds about a member, asking each service as the member (what each already tells
 * them about themselves), and streams it as a zip into storage's StoreExport: never whole in memory, one file of the
 * zip open at a time. The photos' files come the way GET /api/uploads serves them (the photo service says which blob
 * the member may see; storage streams it). Answers the stored zip's key and size.
 */
export async function writeExport(clients: Clients, request: ExportRequest): Promise<{ blobKey: string; size: number }> {
  const { exportId, user, madeAt, progress, signal } = request;
  const maxBytes = request.maxBytes ?? DATA_EXPORT.maxBytes;
  const caller = toCaller(user);

  await progress(0, STEPS.photos);
  const { photos } = await clients.photo.call.listMyPhotos({}, { caller, deadlineMs: LIST_DEADLINE_MS });
  await progress(0, STEPS.votes);
  const { votes } = await clients.vote.call.listMyVotes({}, { caller, deadlineMs: LIST_DEADLINE_MS });
  await progress(0, STEPS.reports);
  const reports = await allReports(clients, caller);
  await progress(0, STEPS.messages);
  const { contactForms } = await clients.support.call.listMyContactForms({}, { caller, deadlineMs: LIST_DEADLINE_MS });

  const avatar = user.customProfileImage ? `avatars/${user.customProfileImage}` : undefined;
  const total = 6 + (avatar ? 1 : 0) + photos.length * PHOTO_FILES.length;
  let done = 0;
  let step: string = STEPS.profile;
  const fileDone = () => progress(percentDone(++done, total), step);

  const zip = new yazl.ZipFile();
  const output = zip.outputStream as Readable;
  const upload = clients.storage.clientStream('storeExport', { caller: null, deadlineMs: STORE_DEADLINE_MS });
  let failure: unknown;
  let rejectAborted!: (error: unknown) => void;
  const aborted = new Promise<never>((_resolve, reject) => {
    rejectAborted = reject;
  });
  aborted.catch(() => undefined);
  const abort = (error: unknown) => {
    if (failure !== undefined) return;
    failure = error;
    rejectAborted(error);
    upload.cancel();
    output.destroy();
  };
  const onAbort = () => abort(signal.reason ?? new Error('The export was stopped'));
  if (signal.aborted) onAbort();
  signal.addEventListener('abort', onAbort, { once: true });
  zip.on('error', abort);

  /** A file of the zip streamed from storage, stored as it is (images are compressed already). */
  async function addBlob(path: string, key: string): Promise<void> {
    const opening = openBlob(clients, key, BLOB_DEADLINE_MS);
    // Stopped meanwhile: the stream that opens after all is closed, not left to its deadline.
    opening.then(
      (late) => {
        if (failure !== undefined) void late.close();
      },
      () => undefined,
    );
    const blob = await Promise.race([opening, aborted]);
    const readable = Readable.from(blob.bytes);
    const written = finished(readable);
    written.catch(() => undefined);
    zip.addReadStream(readable, path, { compress: false, mtime: madeAt, size: blob.info.size });
    try {
      await Promise.race([written, aborted]);
    } finally {
      if (failure !== undefined) readable.destroy();
    }
  }

  async function produce(): Promise<void> {
    zip.addBuffer(Buffer.from(readme({ userId: user.id, madeAt, photos: photos.length, hasAvatar: Boolean(avatar) })), FILES.readme, { mtime: madeAt });
    await fileDone();
    zip.addBuffer(jsonFile(toUserJson(user)), FILES.account, { mtime: madeAt });
    await fileDone();
    if (avatar) {
      await addOptional(() => addBlob(FILES.avatar('image/webp'), avatar));
      await fileDone();
    }
    const photoEntries = [];
    for (const [index, photo] of photos.entries()) {
      step = STEPS.files(index + 1, photos.length);
      const files: Partial<Record<PhotoFileName, string>> = {};
      for (const { size, name } of PHOTO_FILES) {
        await addOptional(async () => {
          const image = await resolveImage(clients, caller, photo.filename, size);
          // A photo without a medium image yet answers its display image for it: that one is in the zip already.
          if (image.fallback) return;
          const path = photoFilePath(photo.id, name, image.contentType);
          await addBlob(path, image.blobKey);
          files[name] = path;
        });
        await fileDone();
      }
      photoEntries.push({ ...toPhotoJson(photo), files });
    }
    step = STEPS.lists;
    zip.addBuffer(jsonFile(photoEntries), FILES.photos, { mtime: madeAt });
    await fileDone();
    zip.addBuffer(
      jsonFile(
        votes.map((vote) => ({
          photoId: vote.photoId,
          rating: vote.rating,
          castAt: vote.castAt?.toISOString() ?? null,
          changedAt: vote.changedAt?.toISOString() ?? null,
          counts: !vote.voided && !vote.suspended,
          voided: vote.voided,
          suspended: vote.suspended,
        })),
      ),
      FILES.votes,
      { mtime: madeAt },
    );
    await fileDone();
    zip.addBuffer(jsonFile(reports.map(toReportJson)), FILES.reports, { mtime: madeAt });
    await fileDone();
    zip.addBuffer(jsonFile(contactForms.map(toContactFormJson)), FILES.contactMessages, { mtime: madeAt });
    await fileDone();
    await progress(percentDone(done, total), STEPS.storing);
    zip.end();
  }

  async function pump() {
    let size = 0;
    await upload.send({ part: { $case: 'header', value: { exportId } } });
    for await (const piece of output) {
      const bytes = piece as Buffer;
      size += bytes.byteLength;
      // Storage refuses it too; stopping here spares it the rest.
      if (size > maxBytes) throw new Error(DATA_EXPORT.tooLarge);
      for (const chunk of chunksOf(bytes, CHUNK_BYTES)) await upload.send({ part: { $case: 'chunk', value: Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength) } });
    }
    if (failure !== undefined) throw failure;
    return upload.finish();
  }

  const producing = produce().catch(abort);
  const storing = pump().catch((error: unknown) => {
    abort(error);
    return undefined;
  });
  try {
    await producing;
    const stored = await storing;
    if (failure !== undefined) throw failure;
    if (!stored?.blob) throw new Error('Storage answered without the stored export');
    return { blobKey: stored.blob.key, size: stored.blob.size };
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/**
 * A file that may be gone by the time it is copied (the photo deleted meanwhile, an avatar replaced): left out, the
 * rest goes on. Anything else fails the export.
 */
async function addOptional(add: () => Promise<void>): Promise<void> {
  try {
    await add();
  } catch (error) {
    if (isServiceError(error) && error.code === status.NOT_FOUND) return;
    throw error;
  }
}

/** Every report of the member, page by page (newest first). */
async function allReports(clients: Clients, caller: Caller): Promise<Report[]> {
  const all: Report[] = [];
  const limit = PAGES.limits.reports.max;
  for (let page = 1; ; page += 1) {
    const answer = await clients.moderation.call.listMyReports({ page: { page, limit } }, { caller, deadlineMs: LIST_DEADLINE_MS });
    all.push(...answer.reports);
    if (page >= answer.totalPages || answer.reports.length === 0) return all;
  }
}
