import { afterEach, describe, expect, it } from 'vitest';
import type { UrlStorage } from 'tus-js-client';
import { findUnfinishedUploads, remembersAnUpload } from './resumable-upload';

afterEach(() => localStorage.clear());

describe('remembersAnUpload', () => {
  it('is false with nothing stored, or only the app’s own keys', () => {
    expect(remembersAnUpload()).toBe(false);
    localStorage.setItem('theme', 'dark');
    expect(remembersAnUpload()).toBe(false);
  });

  // The upload page skips loading tus-js-client when this is false: it must see what tus-js-client itself stores.
  it('is true once tus-js-client has stored an upload', async () => {
    // The browser build's storage, which the app's bundle uses; the test runner resolves the package's Node build.
    // @ts-expect-error The package declares types for its entry only.
    const browserStorage = (await import('tus-js-client/lib.esm/browser/urlStorage.js')) as { WebStorageUrlStorage: new () => UrlStorage };
    const key = await new browserStorage.WebStorageUrlStorage().addUpload('fingerprint-of-a-photo', {
      size: 1000,
      metadata: { filename: 'crack.jpg' },
      creationTime: new Date().toString(),
      uploadUrl: 'http://localhost/api/resumable-uploads/abc',
      urlStorageKey: '',
      parallelUploadUrls: null,
    });
    expect(key).toBeTruthy();
    expect(remembersAnUpload()).toBe(true);
  });
});

describe('findUnfinishedUploads', () => {
  it('finds none, and asks the server nothing, when this browser remembers no upload', async () => {
    const calls: string[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = ((input: RequestInfo | URL) => {
      calls.push(String(input));
      return Promise.reject(new Error('no request expected'));
    }) as typeof fetch;
    try {
      await expect(findUnfinishedUploads()).resolves.toEqual([]);
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(calls).toEqual([]);
  });
});
