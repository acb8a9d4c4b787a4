import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { clearToasts } from '@/lib/toast';

// Pages are lazily loaded: the first visit in a test file waits for the module to be transformed,
// which can exceed the 1 s default on a busy machine.
configure({ asyncUtilTimeout: 5000 });

// jsdom cannot navigate or reload: every full-page navigation goes through these, recorded by tests.
vi.mock('@/lib/browser', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/browser')>()),
  redirectTo: vi.fn(),
  reloadPage: vi.fn(),
}));

// Browser APIs that jsdom lacks and Radix or the theme code use.
// Blob.text: browsers have it, jsdom's Blob does not, and on Node 24 fetch's Response.blob() answers jsdom's Blob.
if (typeof Blob.prototype.text !== 'function') {
  Blob.prototype.text = function text(this: Blob) {
    return new Promise<string>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.onerror = () => reject(reader.error ?? new Error('could not read the blob'));
      reader.readAsText(this);
    });
  };
}
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
window.scrollTo = (() => {}) as typeof window.scrollTo;
Element.prototype.scrollIntoView ??= () => {};
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => {};

afterEach(() => {
  cleanup();
  clearToasts();
  localStorage.clear();
  document.documentElement.className = '';
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});
