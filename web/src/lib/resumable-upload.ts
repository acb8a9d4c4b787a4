/**
 * Sending a photo's bytes so that a bad connection does not start it over: the tus protocol (tus-js-client) to the
 * gateway's resumable uploads (docs/resumable-uploads.md). The bytes go in chunks; a failed one is tried again, and
 * while the connection is gone the upload waits and goes on by itself when it is back. The browser remembers each
 * upload by the file (name, type, size, date), so choosing the same file after a reload goes on from where it stopped.
 */
import type { DetailedError, Upload } from 'tus-js-client';
import { RESUMABLE_UPLOAD } from '@snapcracks/http-contract';
import { ApiError, api } from './api';
import { progressOf, type UploadProgress } from './upload';

/** What the upload is doing, beside its progress: going on from an earlier visit, or waiting for the connection. */
export type ResumableUploadStatus = 'sending' | 'resuming' | 'waiting';

/** Given as the abort signal's reason when the member leaves the page: the upload is kept, to go on later. */
export const LEFT_PAGE = 'left-page';

export interface ResumableUploadOptions {
  onProgress?: ((progress: UploadProgress) => void) | undefined;
  onStatus?: ((status: ResumableUploadStatus) => void) | undefined;
  /** Aborting cancels the upload and deletes its bytes, unless the reason is LEFT_PAGE. */
  signal?: AbortSignal | undefined;
}

export interface SentUpload {
  /** The upload's id, for POST /api/resumable-uploads/{id}/photo. */
  id: string;
  /** Forgets it in this browser, once it became a photo (until then, a retry costs one request, not the bytes again). */
  forget: () => Promise<void>;
}

/** Answers worth waiting out: no answer at all (offline), the server busy or restarting, a writer in the way. */
function isTemporary(status: number): boolean {
  return status === 0 || status >= 500 || status === 409 || status === 423;
}

/**
 * tus-js-client and its helpers (about 16 KiB of gzip) load when an upload starts, or when this browser remembers an
 * upload the page may offer to resume: not with the upload page's code, and on most visits not at all before a photo is
 * chosen, so they never compete with the page's first data.
 */
const loadTus = () => import('tus-js-client');

/** The prefix of every key tus-js-client's browser storage writes to localStorage (its WebStorageUrlStorage). */
const TUS_STORAGE_PREFIX = 'tus::';

/** Whether this browser remembers any upload, read without loading tus-js-client. True when storage cannot be read. */
export function remembersAnUpload(): boolean {
  try {
    for (let i = 0; i < localStorage.length; i++) if (localStorage.key(i)?.startsWith(TUS_STORAGE_PREFIX)) return true;
    return false;
  } catch {
    return true; // Blocked storage: let tus-js-client decide (it falls back to remembering nothing).
  }
}

const lastDelayMs = RESUMABLE_UPLOAD.retryDelaysMs[RESUMABLE_UPLOAD.retryDelaysMs.length - 1] ?? 30_000;

/** Sends `file`; resolves once every byte is stored on the server. Rejects with an ApiError on a refusal. */
export async function sendResumably(file: File, { onProgress, onStatus, signal }: ResumableUploadOptions = {}): Promise<SentUpload> {
  const tus = await loadTus();
  return new Promise<SentUpload>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was aborted.', 'AbortError'));
      return;
    }
    let waitTimer: ReturnType<typeof setTimeout> | undefined;
    let goOnWhenOnline: (() => void) | undefined;
    const stopWaiting = () => {
      clearTimeout(waitTimer);
      if (goOnWhenOnline) window.removeEventListener('online', goOnWhenOnline);
      goOnWhenOnline = undefined;
    };
    const finished = () => {
      stopWaiting();
      signal?.removeEventListener('abort', onAbort);
    };

    const upload = new tus.Upload(file, {
      // Absolute: the client resolves each upload's Location against it.
      endpoint: new URL(RESUMABLE_UPLOAD.path, window.location.origin).href,
      chunkSize: RESUMABLE_UPLOAD.chunkBytes,
      retryDelays: [...RESUMABLE_UPLOAD.retryDelaysMs],
      metadata: { filename: file.name, filetype: file.type },
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: false,
      headers: { Accept: 'application/json' },
      onProgress: (sent, total) => onProgress?.(progressOf(sent, total)),
      onSuccess: () => {
        finished();
        const url = upload.url ?? '';
        resolve({ id: url.slice(url.lastIndexOf('/') + 1), forget: () => forget(upload) });
      },
      onError: (error) => {
        const response = (error as DetailedError).originalResponse ?? null;
        const status = response?.getStatus() ?? 0;
        if (isTemporary(status)) {
          // Out of quick tries: wait for the connection (or the server) to come back, then go on from the stored offset.
          onStatus?.('waiting');
          stopWaiting();
          goOnWhenOnline = () => {
            stopWaiting();
            onStatus?.('sending');
            upload.start();
          };
          window.addEventListener('online', goOnWhenOnline);
          waitTimer = setTimeout(goOnWhenOnline, lastDelayMs);
          return;
        }
        finished();
        reject(new ApiError(status, response?.getBody() ?? '', error.message));
      },
    });

    function onAbort() {
      finished();
      // Cancelled: the bytes sent so far are deleted. Left the page: kept, to go on next time.
      void upload.abort(signal?.reason !== LEFT_PAGE).catch(() => undefined);
      reject(new DOMException('The upload was aborted.', 'AbortError'));
    }
    signal?.addEventListener('abort', onAbort, { once: true });

    void upload
      .findPreviousUploads()
      .catch(() => [])
      .then((previous) => {
        if (signal?.aborted) return;
        const earlier = previous[0];
        if (earlier) {
          upload.resumeFromPreviousUpload(earlier);
          onStatus?.('resuming');
        } else {
          onStatus?.('sending');
        }
        upload.start();
      });
  });
}

/** An upload begun in this browser that stopped before its photo was made. */
export interface UnfinishedUpload {
  id: string;
  filename: string;
  /** 0–100: how much of the file the server has. */
  percent: number;
  storageKey: string;
}

const KEEP_MS = RESUMABLE_UPLOAD.keepHours * 3600 * 1000;

/**
 * The uploads this browser remembers and the server still keeps for this member, so the page can say that choosing
 * the same photo goes on with one. Entries past their keep time are forgotten; one the server no longer knows (expired,
 * or another member's on a shared device) is left out but kept, for its own member.
 */
export async function findUnfinishedUploads(): Promise<UnfinishedUpload[]> {
  if (!remembersAnUpload()) return [];
  const storage = (await loadTus()).defaultOptions.urlStorage;
  const entries = await storage.findAllUploads().catch(() => []);
  const found: UnfinishedUpload[] = [];
  for (const entry of entries) {
    const url = entry.uploadUrl ?? '';
    if (!url.includes(`${RESUMABLE_UPLOAD.path}/`)) continue;
    if (Date.now() - Date.parse(entry.creationTime) > KEEP_MS) {
      await storage.removeUpload(entry.urlStorageKey).catch(() => undefined);
      continue;
    }
    const id = url.slice(url.lastIndexOf('/') + 1);
    const progress = await api.photos.resumableUploadProgress(id).catch(() => null);
    if (!progress || progress.length <= 0) continue;
    found.push({
      id,
      filename: entry.metadata.filename || 'photo',
      percent: Math.min(100, Math.floor((progress.offset / progress.length) * 100)),
      storageKey: entry.urlStorageKey,
    });
  }
  return found;
}

/** Deletes an unfinished upload's bytes on the server and forgets it here. */
export async function discardUnfinishedUpload(upload: UnfinishedUpload): Promise<void> {
  await api.photos.cancelResumableUpload(upload.id);
  await (await loadTus()).defaultOptions.urlStorage.removeUpload(upload.storageKey);
}

async function forget(upload: Upload): Promise<void> {
  const storage = (await loadTus()).defaultOptions.urlStorage;
  const previous = await upload.findPreviousUploads().catch(() => []);
  await Promise.all(previous.filter((entry) => entry.uploadUrl === upload.url).map((entry) => storage.removeUpload(entry.urlStorageKey)));
}
