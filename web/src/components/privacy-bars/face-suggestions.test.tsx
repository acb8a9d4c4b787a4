import { useState, type ReactElement } from 'react';
import { act, render as renderAlone, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api';
import { getToasts } from '@/lib/toast';
import type { PrivacyBar } from '@/lib/types';
import { QueryWrapper } from '@/test/query-wrapper';
import { suggestFaceBars, suggestFaceBarsAt, suggestionFailureMessage } from './face-suggestions';
import { PrivacyBarEditor } from './privacy-bar-editor';

/** The editor asks for suggestions through the query client. */
const render = (ui: ReactElement) => renderAlone(ui, { wrapper: QueryWrapper });

const FACE_SUGGESTIONS_URL = '/api/photos/face-suggestions';

let latest: PrivacyBar[] = [];

function Harness({ suggestFaces, initial = [] }: { suggestFaces?: () => Promise<PrivacyBar[]>; initial?: PrivacyBar[] }) {
  const [bars, setBars] = useState<PrivacyBar[]>(initial);
  const change = (next: PrivacyBar[]) => {
    latest = next;
    setBars(next);
  };
  return <PrivacyBarEditor imageUrl="blob:photo" alt="Crack in a wall" bars={bars} onChange={change} suggestFaces={suggestFaces} />;
}

/** A promise the test settles by hand, to look at the button while the request runs. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

afterEach(() => {
  latest = [];
  vi.unstubAllGlobals();
});

describe('Suggest bars over faces', () => {
  it('is offered only when the page can suggest', () => {
    render(<Harness />);
    expect(screen.queryByRole('button', { name: /Suggest bars over faces/ })).not.toBeInTheDocument();
  });

  it('shows progress while it runs, keeps focus, then adds the bars to the ones drawn', async () => {
    const answer = deferred<PrivacyBar[]>();
    const suggestFaces = vi.fn(() => answer.promise);
    render(<Harness suggestFaces={suggestFaces} initial={[{ x: 0, y: 0, width: 10, height: 10 }]} />);

    // Keyboard only: Tab to the button, Enter to run it.
    const user = userEvent.setup();
    const button = screen.getByRole('button', { name: 'Suggest bars over faces' });
    button.focus();
    await user.keyboard('{Enter}');
    const busy = screen.getByRole('button', { name: 'Finding faces...' });
    expect(busy).toHaveAttribute('aria-disabled', 'true');
    expect(busy).toHaveAttribute('aria-busy', 'true');
    expect(busy).toHaveFocus();
    // A second press while it runs asks nothing more.
    await user.keyboard('{Enter}');
    expect(suggestFaces).toHaveBeenCalledTimes(1);

    await act(async () => answer.resolve([{ x: 38, y: 29, width: 24, height: 12 }, { x: 70, y: 10, width: 20, height: 30 }]));
    expect(latest).toEqual([
      { x: 0, y: 0, width: 10, height: 10 },
      { x: 38, y: 29, width: 24, height: 12 },
      { x: 70, y: 10, width: 20, height: 30 },
    ]);
    expect(screen.getAllByRole('button', { name: /^Privacy bar \d of 3$/ })).toHaveLength(3);
    expect(screen.getByTestId('face-suggestion-note')).toHaveTextContent('2 bars suggested over faces');
    expect(screen.getByRole('button', { name: 'Suggest bars over faces' })).not.toHaveAttribute('aria-disabled');
  });

  it('says so when there are no faces, adding nothing', async () => {
    render(<Harness suggestFaces={() => Promise.resolve([])} />);
    await userEvent.click(screen.getByRole('button', { name: 'Suggest bars over faces' }));
    expect(await screen.findByTestId('face-suggestion-note')).toHaveTextContent('No faces found.');
    // Screen readers hear it too, from the editor's live region.
    expect(screen.getByRole('status')).toHaveTextContent('No faces found.');
    expect(latest).toEqual([]);
  });

  it('toasts when the detector is slow or failing, and lets the member try again', async () => {
    render(<Harness suggestFaces={() => Promise.reject(new ApiError(503, '{"message":"Service temporarily unavailable. Please try again."}'))} />);
    await userEvent.click(screen.getByRole('button', { name: 'Suggest bars over faces' }));
    await waitFor(() =>
      expect(getToasts()[0]).toMatchObject({
        variant: 'destructive',
        title: 'Could Not Suggest Bars',
        description: 'Face detection took too long or is busy. Please try again, or draw the bars yourself.',
      }),
    );
    expect(screen.getByRole('button', { name: 'Suggest bars over faces' })).toBeEnabled();
    expect(latest).toEqual([]);
  });

  it('turns a 429 (the member’s face-check limit) into the toast with the server’s text', async () => {
    const limited = 'Too many face checks in a short time. Please wait a moment and try again, or draw the bars yourself.';
    render(<Harness suggestFaces={() => Promise.reject(new ApiError(429, JSON.stringify({ message: limited })))} />);
    await userEvent.click(screen.getByRole('button', { name: 'Suggest bars over faces' }));
    await waitFor(() => expect(getToasts()[0]).toMatchObject({ variant: 'destructive', title: 'Could Not Suggest Bars', description: limited }));
    expect(screen.getByRole('button', { name: 'Suggest bars over faces' })).toBeEnabled();
  });
});

describe('suggestFaceBars', () => {
  it('posts a scaled copy of the file and reads the bars', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ bars: [{ x: 1, y: 2, width: 3, height: 4 }] }), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const copy = new Blob(['jpeg'], { type: 'image/jpeg' });
    const bars = await suggestFaceBars(new Blob(['original']), async () => copy);
    expect(bars).toEqual([{ x: 1, y: 2, width: 3, height: 4 }]);
    expect(fetchMock).toHaveBeenCalledWith(FACE_SUGGESTIONS_URL, {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'image/jpeg' },
      body: copy,
    });
  });

  it('checks an uploaded photo by fetching the original the editor shows, then sending its copy', async () => {
    const fetchMock = vi.fn(async (url: string) =>
      url === FACE_SUGGESTIONS_URL ? new Response(JSON.stringify({ bars: [{ x: 5, y: 6, width: 7, height: 8 }] }), { status: 200 }) : new Response('original', { status: 200 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const copy = vi.fn(async (file: Blob) => new Blob([await file.text()], { type: 'image/jpeg' }));
    await expect(suggestFaceBarsAt('/api/uploads/a.jpg?size=original&v=1', copy)).resolves.toEqual([{ x: 5, y: 6, width: 7, height: 8 }]);
    expect(fetchMock.mock.calls[0]).toEqual(['/api/uploads/a.jpg?size=original&v=1', { credentials: 'include' }]);
    expect(await copy.mock.calls[0]![0].text()).toBe('original');
    expect(fetchMock.mock.calls[1]![0]).toBe(FACE_SUGGESTIONS_URL);
  });

  it('reports an original it could not fetch as an ApiError and asks for no suggestions', async () => {
    const fetchMock = vi.fn(async () => new Response('{"message":"Not found"}', { status: 404 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(suggestFaceBarsAt('/api/uploads/gone.jpg?size=original&v=1', async (file) => file)).rejects.toBeInstanceOf(ApiError);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('turns a refusal into an ApiError with the server message', async () => {
    vi.stubGlobal('fetch', async () => new Response('{"message":"Only JPG, PNG or WebP images up to 3MB can be checked for faces"}', { status: 400 }));
    const error = await suggestFaceBars(new Blob(['x']), async (file) => file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(suggestionFailureMessage(error)).toBe('Only JPG, PNG or WebP images up to 3MB can be checked for faces');
    expect(suggestionFailureMessage(new Error('canvas'))).toMatch(/could not be checked for faces/);
  });
});
