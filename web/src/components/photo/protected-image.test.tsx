import { createEvent, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { PROTECTED_IMAGE_QUALITY, ProtectedImage, WATERMARK_TEXT } from './protected-image';

/** An Image that loads (or fails) as soon as its src is set: jsdom never loads images. */
function stubImage(outcome: 'load' | 'error') {
  class FakeImage {
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    decoding = 'auto';
    naturalWidth = 800;
    naturalHeight = 600;
    set src(_value: string) {
      queueMicrotask(() => (outcome === 'load' ? this.onload?.() : this.onerror?.()));
    }
  }
  vi.stubGlobal('Image', FakeImage);
}

function stubCanvas({ context = true, blobType = 'image/webp' }: { context?: boolean; blobType?: string } = {}) {
  const drawn: string[] = [];
  const fakeContext = new Proxy(
    {},
    {
      get: (_target, property) =>
        property === 'fillText' ? (text: string) => drawn.push(text) : typeof property === 'string' ? () => {} : undefined,
      set: () => true,
    },
  );
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(
    (() => (context ? fakeContext : null)) as unknown as HTMLCanvasElement['getContext'],
  );
  const toBlob = vi
    .spyOn(HTMLCanvasElement.prototype, 'toBlob')
    .mockImplementation((callback, type) => callback(new Blob(['x'], { type: type === 'image/webp' ? blobType : type })));
  return { drawn, toBlob };
}

describe('ProtectedImage', () => {
  // jsdom has no blob URLs.
  const { createObjectURL, revokeObjectURL } = URL;
  let revoke: Mock<(url: string) => void>;

  beforeEach(() => {
    revoke = vi.fn<(url: string) => void>();
    URL.createObjectURL = vi.fn(() => 'blob:watermarked');
    URL.revokeObjectURL = revoke;
  });
  afterEach(() => {
    vi.restoreAllMocks();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
  });

  it('shows the watermarked canvas copy, encoded at 0.9, from a blob URL it revokes on unmount', async () => {
    stubImage('load');
    const { drawn, toBlob } = stubCanvas();
    const { unmount } = render(<ProtectedImage src="/api/uploads/a.jpg?size=display&v=1" alt="A crack" width={800} height={600} />);
    expect(await screen.findByRole('img', { name: 'A crack' })).toHaveAttribute('src', 'blob:watermarked');
    expect(drawn).toHaveLength(1);
    expect(drawn.every((text) => text === WATERMARK_TEXT)).toBe(true);
    expect(toBlob).toHaveBeenCalledWith(expect.any(Function), 'image/webp', PROTECTED_IMAGE_QUALITY);
    unmount();
    expect(revoke).toHaveBeenCalledWith('blob:watermarked');
  });

  it('encodes JPEG at 0.9 where the browser cannot encode WebP', async () => {
    stubImage('load');
    const { toBlob } = stubCanvas({ blobType: 'image/png' });
    render(<ProtectedImage src="/a.jpg" alt="A crack" />);
    expect(await screen.findByRole('img', { name: 'A crack' })).toHaveAttribute('src', 'blob:watermarked');
    expect(toBlob).toHaveBeenLastCalledWith(expect.any(Function), 'image/jpeg', PROTECTED_IMAGE_QUALITY);
  });

  it.each([
    ['the image fails to load', () => (stubImage('error'), stubCanvas())],
    ['the canvas is unavailable', () => (stubImage('load'), stubCanvas({ context: false }))],
  ])('falls back to the original URL when %s', async (_case, setup) => {
    setup();
    render(<ProtectedImage src="/api/uploads/a.jpg?size=display&v=1" alt="A crack" />);
    await waitFor(() =>
      expect(screen.getByRole('img', { name: 'A crack' })).toHaveAttribute('src', '/api/uploads/a.jpg?size=display&v=1'),
    );
  });

  it('blocks right-click, dragging, Ctrl/Cmd+S, F12 and Ctrl/Cmd+Shift+I while shown', async () => {
    stubImage('load');
    stubCanvas();
    const { unmount } = render(<ProtectedImage src="/a.jpg" alt="A crack" />);
    const image = await screen.findByRole('img', { name: 'A crack' });
    expect(fireEvent.contextMenu(image)).toBe(false);
    expect(fireEvent.dragStart(image)).toBe(false);
    for (const init of [
      { key: 's', ctrlKey: true },
      { key: 's', metaKey: true },
      { key: 'F12' },
      { key: 'I', ctrlKey: true, shiftKey: true },
      { key: 'i', metaKey: true, shiftKey: true },
    ]) {
      const event = createEvent.keyDown(window, init);
      fireEvent(window, event);
      expect(event.defaultPrevented, JSON.stringify(init)).toBe(true);
    }
    expect(fireEvent.keyDown(window, { key: 'c', ctrlKey: true })).toBe(true);
    unmount();
    expect(fireEvent.keyDown(window, { key: 'F12' })).toBe(true);
  });

  it('clears the clipboard when the window regains focus, ignoring refusals', async () => {
    stubImage('load');
    stubCanvas();
    const writeText = vi.fn(() => Promise.reject(new Error('not allowed')));
    vi.stubGlobal('navigator', Object.assign(Object.create(navigator), { clipboard: { writeText } }));
    render(<ProtectedImage src="/a.jpg" alt="A crack" />);
    await screen.findByRole('img', { name: 'A crack' });
    fireEvent.focus(window);
    expect(writeText).toHaveBeenCalledWith('');
  });
});
