/**
 * Multipart uploads with progress. fetch reports no upload progress, so this uses XMLHttpRequest,
 * with the same contract as the JSON client: the session cookie is sent, and a non-2xx answer
 * rejects with an ApiError (`${status}: ${body text or status text}`).
 */
import { ApiError } from './api';

export interface UploadProgress {
  /** Bytes sent so far. */
  loaded: number;
  /** Total bytes to send, when the browser knows it (else 0). */
  total: number;
  /** 0–100, rounded down; 100 only once everything is sent. */
  percent: number;
}

export interface UploadOptions {
  method?: 'POST' | 'PUT' | 'PATCH';
  onProgress?: ((progress: UploadProgress) => void) | undefined;
  signal?: AbortSignal | undefined;
}

export function progressOf(loaded: number, total: number): UploadProgress {
  const percent = total > 0 ? Math.min(100, Math.floor((loaded / total) * 100)) : 0;
  return { loaded, total, percent };
}

/** Sends `body` to `url` and resolves with the parsed JSON answer (undefined when empty or not JSON). */
export function uploadWithProgress<T>(url: string, body: FormData, options: UploadOptions = {}): Promise<T> {
  const { method = 'POST', onProgress, signal } = options;
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was aborted.', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');

    const onAbortSignal = () => xhr.abort();
    signal?.addEventListener('abort', onAbortSignal, { once: true });
    const cleanUp = () => signal?.removeEventListener('abort', onAbortSignal);

    if (onProgress) {
      xhr.upload.addEventListener('progress', (event) => {
        if (event.lengthComputable) onProgress(progressOf(event.loaded, event.total));
      });
    }
    xhr.addEventListener('load', () => {
      cleanUp();
      const text = typeof xhr.responseText === 'string' ? xhr.responseText : '';
      if (xhr.status >= 200 && xhr.status < 300) {
        let data: unknown;
        try {
          data = text ? JSON.parse(text) : undefined;
        } catch {
          data = undefined;
        }
        resolve(data as T);
      } else {
        reject(new ApiError(xhr.status, text, xhr.statusText));
      }
    });
    xhr.addEventListener('error', () => {
      cleanUp();
      reject(new TypeError('Network request failed'));
    });
    xhr.addEventListener('timeout', () => {
      cleanUp();
      reject(new TypeError('Network request timed out'));
    });
    xhr.addEventListener('abort', () => {
      cleanUp();
      reject(new DOMException('The upload was aborted.', 'AbortError'));
    });
    xhr.send(body);
  });
}
