import { AsyncLocalStorage } from 'node:async_hooks';
import type { Readable } from 'node:stream';
import { DataStore, ERRORS, Upload } from '@tus/utils';
import { RESUMABLE_UPLOAD, UPLOAD } from '@snapcracks/http-contract';
import { IMAGE_TYPE_SNIFF_BYTES, hasControlCharacters, sniffImageType } from '@snapcracks/kit';
import type { ResumableUploadRepository } from './resumable-upload.repository.js';

/** Who a tus request is for: the routes run the protocol's handler inside `uploadCaller.run(...)`. */
export interface UploadCaller {
  userId: string;
  /** Where an unexpected failure is logged, with the request's id. */
  logError: (error: unknown) => void;
}
export const uploadCaller = new AsyncLocalStorage<UploadCaller>();

/** A refusal the protocol's handler answers as is (tus's own errors have this shape too). */
export interface TusRefusal {
  status_code: number;
  body: string;
}

export function isTusRefusal(error: unknown): error is TusRefusal {
  return typeof error === 'object' && error !== null && 'status_code' in error && typeof error.status_code === 'number';
}

/** Bytes are stored in pieces of about this size: a cut connection loses at most the piece in flight. */
const PIECE_BYTES = 256 * 1024;
const FILENAME_MAX = 255;

/**
 * The tus data store over `gateway.resumable_uploads`: what the protocol's handler reads and writes, always as the
 * member the request is for (`uploadCaller`), so an upload id alone reaches nothing. Every replica sees the same
 * uploads, so a client that resumes through another replica continues where it stopped. Bytes arrive in pieces, each
 * appended only at the offset it was read at (see the repository); the first ones must be an image's, or the upload
 * is deleted and refused at once instead of after ten megabytes.
 */
export class TusUploadStore extends DataStore {
  constructor(
    private readonly uploads: ResumableUploadRepository,
    private readonly options: { keepMs: number; maxUnfinished: number },
  ) {
    super();
    this.extensions = ['creation', 'creation-with-upload', 'termination', 'expiration'];
  }

  override async create(upload: Upload): Promise<Upload> {
    const { userId } = caller();
    if (!upload.size) throw refusal(400, UPLOAD.refused);
    const result = await this.uploads.begin(
      { id: upload.id, userId, length: upload.size, filename: filenameOf(upload.metadata?.filename), keepMs: this.options.keepMs },
      this.options.maxUnfinished,
    );
    if (result === 'tooManyUnfinished') throw refusal(429, RESUMABLE_UPLOAD.tooManyUnfinished);
    upload.creation_date = result.createdAt.toISOString();
    return upload;
  }

  override async getUpload(id: string): Promise<Upload> {
    const row = await this.uploads.find(caller().userId, id);
    if (!row) throw ERRORS.FILE_NOT_FOUND;
    return new Upload({ id, size: row.length, offset: row.offset, metadata: { filename: row.filename }, creation_date: row.createdAt.toISOString() });
  }

  override async write(stream: Readable, id: string, offset: number): Promise<number> {
    const { userId } = caller();
    // Until the first bytes have been seen, how many make a file's start (fewer when the whole file is smaller).
    let unsniffed = offset < IMAGE_TYPE_SNIFF_BYTES ? await this.sniffLength(userId, id) : 0;
    let at = offset;
    let pending: Buffer[] = [];
    let pendingBytes = 0;

    const flush = async () => {
      if (pendingBytes === 0) return;
      const bytes = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      if (!(await this.uploads.append(userId, id, at, bytes))) throw ERRORS.INVALID_OFFSET;
      at += bytes.byteLength;
    };
    const checkStart = async () => {
      if (unsniffed === 0 || at + pendingBytes < unsniffed) return;
      const head = Buffer.concat([at > 0 ? await this.uploads.head(id, at) : Buffer.alloc(0), ...pending]).subarray(0, unsniffed);
      unsniffed = 0;
      if (sniffImageType(head) === null) {
        await this.uploads.remove(userId, id);
        throw refusal(415, UPLOAD.refused);
      }
    };

    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        pending.push(chunk);
        pendingBytes += chunk.byteLength;
        await checkStart();
        if (unsniffed === 0 && pendingBytes >= PIECE_BYTES) await flush();
      }
    } catch (error) {
      // The connection was cut: what arrived is kept (its start checked first when it can be), so the client resumes
      // from there.
      if (!isTusRefusal(error)) await checkStart().then(flush).catch(() => undefined);
      throw error;
    }
    await checkStart();
    await flush();
    return at;
  }

  override async remove(id: string): Promise<void> {
    if (!(await this.uploads.remove(caller().userId, id))) throw ERRORS.FILE_NOT_FOUND;
  }

  override async deleteExpired(): Promise<number> {
    return this.uploads.deleteExpired();
  }

  override getExpiration(): number {
    return this.options.keepMs;
  }

  /** The bytes that tell the file's type: the sniff's share of it, or the whole file when it is smaller. */
  private async sniffLength(userId: string, id: string): Promise<number> {
    const row = await this.uploads.find(userId, id);
    return row ? Math.min(IMAGE_TYPE_SNIFF_BYTES, row.length) : IMAGE_TYPE_SNIFF_BYTES;
  }
}

function caller(): UploadCaller {
  const current = uploadCaller.getStore();
  if (!current) throw new Error('A tus request reached the upload store outside uploadCaller.run()');
  return current;
}

function refusal(status: number, message: string): TusRefusal {
  return { status_code: status, body: message };
}

/** The name the member's device gave the file, made safe to store and show; `photo` without one. */
function filenameOf(raw: string | null | undefined): string {
  const name = (raw ?? '').trim();
  if (!name || hasControlCharacters(name)) return 'photo';
  return name.slice(0, FILENAME_MAX);
}
