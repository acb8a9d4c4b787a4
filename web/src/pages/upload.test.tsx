import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HeicPreviewMessage, HeicPreviewRequest } from '@/workers/heic-preview-protocol';
import { redirectTo } from '@/lib/browser';
import { getToasts } from '@/lib/toast';
import { userPhotosQueryKey } from '@/queries/user-photos';
import { mockFetch, type MockHandler } from '@/test/fetch-mock';
import { makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';
import {
  discardUnfinishedUpload,
  findUnfinishedUploads,
  sendResumably,
  LEFT_PAGE,
  type ResumableUploadOptions,
  type SentUpload,
  type UnfinishedUpload,
} from '@/lib/resumable-upload';
import { progressOf } from '@/lib/upload';

// The dashboard is another screen's business: a stub keeps its calls and toasts out of these tests.
vi.mock('@/pages/dashboard', () => ({ DashboardPage: () => <h1>Dashboard stub</h1> }));
// The resumable protocol itself is tus-js-client's, tried for real in Chromium (e2e/resumable-upload.e2e.test.ts):
// here the bytes' journey is a stand-in that reports progress and resolves with the upload's id.
vi.mock('@/lib/resumable-upload', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/resumable-upload')>()),
  sendResumably: vi.fn(),
  findUnfinishedUploads: vi.fn(() => Promise.resolve([])),
  discardUnfinishedUpload: vi.fn(() => Promise.resolve()),
}));

const UPLOAD_ID = 'c0ffee00c0ffee00c0ffee00c0ffee00';
const FINISH = `POST /api/resumable-uploads/${UPLOAD_ID}/photo`;

interface Transfer {
  file: File;
  options: ResumableUploadOptions;
  forget: ReturnType<typeof vi.fn>;
}

/** How the stand-in sends the bytes: by default at once, reporting 40% then 100%. */
type TransferBehaviour = (transfer: Transfer) => Promise<void>;

const photoFile = (name = 'wall.jpg', type = 'image/jpeg') => new File(['crack'], name, { type });

function setup({
  upload = { status: 201, body: { id: 5, filename: 'stored.jpg' } },
  bars = { body: { bars: [] } },
  transfer = async ({ options }) => {
    options.onProgress?.(progressOf(40, 100));
    options.onProgress?.(progressOf(100, 100));
  },
}: { upload?: MockHandler; bars?: MockHandler; transfer?: TransferBehaviour } = {}) {
  const requests = mockFetch({
    'GET /api/auth/user': { body: makeUser() },
    'POST /api/photos/5/privacy-bars': bars,
    [FINISH]: upload,
  });
  const transfers: Transfer[] = [];
  vi.mocked(sendResumably).mockImplementation(async (file: File, options: ResumableUploadOptions = {}): Promise<SentUpload> => {
    const sent: Transfer = { file, options, forget: vi.fn(() => Promise.resolve()) };
    transfers.push(sent);
    await transfer(sent);
    return { id: UPLOAD_ID, forget: sent.forget as () => Promise<void> };
  });
  /** The calls that made photos of the sent bytes, with their text. */
  const finishes = () => requests.filter((request) => `${request.method} ${request.url}` === FINISH);
  const rendered = renderApp('/upload');
  const user = userEvent.setup();
  return { requests, transfers, finishes, user, ...rendered };
}

const submitButton = () => screen.getByRole('button', { name: /^(Upload Photo|Save Privacy Bars?)$/ });
const location = () => screen.getByTestId('location').textContent;

async function chooseFile(user: ReturnType<typeof userEvent.setup>, file = photoFile()) {
  await user.upload(await screen.findByLabelText('Photo file'), file);
}

async function agreeToTerms(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('checkbox', { name: /I agree to the Terms of Service/ }));
}

/**
 * Stands in for the HEIC preview worker (jsdom has no workers): answers each request with the stages and the
 * outcome `answer` gives, a moment later, as the real worker does.
 */
function stubPreviewWorker(answer: (request: HeicPreviewRequest) => HeicPreviewMessage) {
  const started: FakeWorker[] = [];
  class FakeWorker {
    onmessage: ((event: MessageEvent<HeicPreviewMessage>) => void) | null = null;
    onerror: ((event: ErrorEvent) => void) | null = null;
    requests: HeicPreviewRequest[] = [];
    terminated = false;
    constructor(
      readonly url: URL | string,
      readonly options?: WorkerOptions,
    ) {
      started.push(this);
    }
    postMessage(request: HeicPreviewRequest) {
      this.requests.push(request);
      const send = (message: HeicPreviewMessage) => {
        if (!this.terminated) this.onmessage?.({ data: message } as MessageEvent<HeicPreviewMessage>);
      };
      setTimeout(() => send({ type: 'stage', stage: 'decoding' }), 10);
      setTimeout(() => send(answer(request)), 60);
    }
    terminate() {
      this.terminated = true;
    }
  }
  vi.stubGlobal('Worker', FakeWorker);
  return started;
}

const decodedPreview = (): HeicPreviewMessage => ({
  type: 'done',
  blob: new Blob(['jpeg'], { type: 'image/jpeg' }),
  width: 1536,
  height: 2048,
  sourceWidth: 3024,
  sourceHeight: 4032,
  decoder: 'libheif',
  timings: { load: 50, decode: 1000, scale: 100 },
});

beforeEach(() => {
  vi.mocked(findUnfinishedUploads).mockImplementation(() => Promise.resolve([]));
  // A chosen file is shown as itself; a HEIC photo as the JPEG its worker made.
  URL.createObjectURL = vi.fn((blob: Blob) => (blob instanceof File ? 'blob:preview' : 'blob:heic-preview'));
  URL.revokeObjectURL = vi.fn();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('upload page', () => {
  it('disables submit until a photo is chosen, then shows its preview', async () => {
    const { user } = setup();
    expect(await screen.findByRole('heading', { name: 'Snap a Crack' })).toBeInTheDocument();
    expect(screen.getByText('Only image files (PNG, JPG, JPEG) up to 10MB are accepted. HEIC and WebP photos work too.')).toBeInTheDocument();
    expect(submitButton()).toBeDisabled();

    await chooseFile(user);
    expect(await screen.findByRole('img', { name: 'Preview of wall.jpg' })).toHaveAttribute('src', 'blob:preview');
    expect(submitButton()).toBeEnabled();

    await user.click(screen.getByRole('button', { name: 'Remove photo' }));
    expect(submitButton()).toBeDisabled();
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:preview');
  });

  it('requires the terms checkbox', async () => {
    const { user, transfers } = setup();
    await chooseFile(user);
    await user.click(submitButton());
    expect(await screen.findByText('You must agree to the terms of service')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: /I agree/ })).toHaveAttribute('aria-invalid', 'true');
    expect(transfers).toHaveLength(0);

    await agreeToTerms(user);
    await waitFor(() => expect(screen.queryByText('You must agree to the terms of service')).not.toBeInTheDocument());
  });

  it('uploads the photo with its description, then posts the bars, then goes to the dashboard', async () => {
    const { user, transfers, finishes, requests, queryClient } = setup({ bars: { body: { bars: [{ x: 35, y: 45, width: 30, height: 10 }] } } });
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    await chooseFile(user);
    await user.click(await screen.findByRole('button', { name: 'Add bar' }));
    await user.type(screen.getByLabelText('Description (optional)'), '  A crack shaped like a river  ');
    expect(screen.getByText('31/500')).toBeInTheDocument();
    await agreeToTerms(user);
    await user.click(submitButton());

    expect(await screen.findByRole('heading', { name: 'Dashboard stub' })).toBeInTheDocument();
    expect(location()).toBe('/dashboard');
    expect(getToasts()[0]).toMatchObject({ title: 'Success', description: 'Your photo was uploaded and is awaiting review.' });

    expect(transfers).toHaveLength(1);
    expect(transfers[0]?.file.name).toBe('wall.jpg');
    expect(finishes()).toHaveLength(1);
    expect(finishes()[0]?.json).toEqual({ description: 'A crack shaped like a river' });
    // Made a photo: the browser forgets the upload.
    expect(transfers[0]?.forget).toHaveBeenCalled();
    const barRequest = requests.find((request) => request.url === '/api/photos/5/privacy-bars');
    expect(barRequest?.method).toBe('POST');
    expect(barRequest?.json).toEqual({ bars: [{ x: 35, y: 45, width: 30, height: 10 }] });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: userPhotosQueryKey });
  });

  it('prompts for optional alt text, with its hint and count, and sends it only when filled', async () => {
    const { user, finishes } = setup();
    await chooseFile(user);
    const altText = screen.getByRole('textbox', { name: 'Alt text (optional)' });
    expect(altText).toHaveAccessibleDescription("Describe what the photo shows for people who can't see it. 0/1000");
    expect(screen.getByText("Describe what the photo shows for people who can't see it.")).toBeVisible();

    // Left empty: no altText field at all.
    await agreeToTerms(user);
    await user.click(submitButton());
    expect(await screen.findByRole('heading', { name: 'Dashboard stub' })).toBeInTheDocument();
    expect(finishes()).toHaveLength(1);
    expect(finishes()[0]?.json).toEqual({});
  });

  it('sends the alt text, trimmed, with the description', async () => {
    const { user, finishes } = setup();
    await chooseFile(user);
    await user.type(screen.getByLabelText('Description (optional)'), 'My favourite');
    await user.type(screen.getByLabelText('Alt text (optional)'), '  A crack runs across a brick wall ');
    expect(screen.getByText('35/1000')).toBeInTheDocument();
    await agreeToTerms(user);
    await user.click(submitButton());
    expect(await screen.findByRole('heading', { name: 'Dashboard stub' })).toBeInTheDocument();
    expect(finishes()[0]?.json).toEqual({ description: 'My favourite', altText: 'A crack runs across a brick wall' });
  });

  it('refuses alt text over 1000 characters before sending, and shows the server’s 400 message', async () => {
    const { user, transfers, finishes } = setup({ upload: { status: 400, text: '{"message":"Alt text must be 1000 characters or less"}' } });
    await chooseFile(user);
    const altText = screen.getByLabelText('Alt text (optional)');
    fireEvent.change(altText, { target: { value: 'x'.repeat(1001) } });
    await agreeToTerms(user);
    await user.click(submitButton());
    expect(await screen.findByText('Alt text must be 1000 characters or less')).toBeInTheDocument();
    expect(screen.getByText('1001/1000')).toBeInTheDocument();
    expect(altText).toHaveAttribute('aria-invalid', 'true');
    expect(altText).toHaveAccessibleDescription(
      "Alt text must be 1000 characters or less Describe what the photo shows for people who can't see it. 1001/1000",
    );
    expect(transfers).toHaveLength(0);

    // Within the limit here, but the server may still refuse it: its message is shown as for any failed upload.
    fireEvent.change(altText, { target: { value: 'A crack' } });
    await user.click(submitButton());
    await waitFor(() =>
      expect(getToasts()[0]).toMatchObject({ variant: 'destructive', title: 'Upload Failed', description: 'Alt text must be 1000 characters or less' }),
    );
    expect(finishes()).toHaveLength(1);
    expect(location()).toBe('/upload');
  });

  it('shows the upload progress while the photo is sent', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { user, requests } = setup({ transfer: () => held });
    await chooseFile(user);
    await agreeToTerms(user);
    await user.click(submitButton());
    expect(await screen.findByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('aria-valuenow', '0');
    expect(screen.getByRole('button', { name: 'Uploading... 0%' })).toBeDisabled();
    release();
    expect(await screen.findByRole('heading', { name: 'Dashboard stub' })).toBeInTheDocument();
    // No bars drawn: no bars call.
    expect(requests.some((request) => request.url.includes('privacy-bars'))).toBe(false);
  });

  it('toasts the server message when the upload fails, else a fallback', async () => {
    const { user } = setup({ upload: { status: 413, text: '{"message":"That photo is too big"}' } });
    await chooseFile(user);
    await agreeToTerms(user);
    await user.click(submitButton());
    await waitFor(() =>
      expect(getToasts()[0]).toMatchObject({ variant: 'destructive', title: 'Upload Failed', description: 'That photo is too big' }),
    );
    expect(location()).toBe('/upload');
    expect(submitButton()).toBeEnabled();

    mockFetch({ 'GET /api/auth/user': { body: makeUser() }, [FINISH]: { status: 500, text: '<html>Internal Server Error</html>' } });
    await user.click(submitButton());
    await waitFor(() =>
      expect(getToasts()[0]).toMatchObject({ title: 'Upload Failed', description: 'Failed to upload photo. Please try again.' }),
    );
  });

  it('turns a 429 (the member’s upload limit) into the Upload Failed toast with the server’s text', async () => {
    const limited = 'You are uploading photos faster than allowed. Please wait a minute and try again.';
    const { user } = setup({ upload: { status: 429, text: JSON.stringify({ message: limited }), statusText: 'Too Many Requests' } });
    await chooseFile(user);
    await agreeToTerms(user);
    await user.click(submitButton());
    await waitFor(() => expect(getToasts()[0]).toMatchObject({ variant: 'destructive', title: 'Upload Failed', description: limited }));
    expect(location()).toBe('/upload');
    expect(submitButton()).toBeEnabled();
  });

  it('keeps the uploaded photo when its bars fail, and retries only the bars', async () => {
    let barAttempts = 0;
    const { user, transfers, finishes } = setup({
      bars: () => {
        barAttempts += 1;
        return barAttempts === 1 ? { status: 400, text: '{"message":"Bars are out of range"}' } : { body: { bars: [] } };
      },
    });
    await chooseFile(user);
    await user.click(await screen.findByRole('button', { name: 'Add bar' }));
    await agreeToTerms(user);
    await user.click(submitButton());
    await waitFor(() =>
      expect(getToasts()[0]).toMatchObject({
        variant: 'destructive',
        title: 'Failed to Save Privacy Bars',
        description: 'Bars are out of range',
      }),
    );
    expect(location()).toBe('/upload');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Your photo was uploaded, but its privacy bar was not saved yet. Save it again, or go to My Dashboard',
    );

    await user.click(screen.getByRole('button', { name: 'Save Privacy Bar' }));
    expect(await screen.findByRole('heading', { name: 'Dashboard stub' })).toBeInTheDocument();
    expect(transfers).toHaveLength(1);
    expect(finishes()).toHaveLength(1);
    expect(barAttempts).toBe(2);
  });

  it('falls back to "Please try again." when saving bars fails without a server message', async () => {
    const { user } = setup({ bars: { status: 502, text: '', statusText: 'Bad Gateway' } });
    await chooseFile(user);
    await user.click(await screen.findByRole('button', { name: 'Add bar' }));
    await agreeToTerms(user);
    await user.click(submitButton());
    await waitFor(() =>
      expect(getToasts()[0]).toMatchObject({ title: 'Failed to Save Privacy Bars', description: 'Please try again.' }),
    );
  });

  it('sends the user to sign in again when the session is gone', async () => {
    const { user } = setup({ upload: { status: 401, text: '', statusText: 'Unauthorized' } });
    await chooseFile(user);
    await agreeToTerms(user);
    await user.click(submitButton());
    await waitFor(() => expect(getToasts()[0]).toMatchObject({ title: 'Unauthorized' }));
    await waitFor(() => expect(redirectTo).toHaveBeenCalledWith('/api/login'));
  });

  it('says when it goes on with an earlier upload, and when it waits for the connection', async () => {
    let goOn!: () => void;
    const { user } = setup({
      transfer: async ({ options }) => {
        options.onStatus?.('resuming');
        options.onProgress?.(progressOf(60, 100));
        await new Promise<void>((resolve) => {
          goOn = resolve;
        });
      },
    });
    await chooseFile(user);
    await agreeToTerms(user);
    await user.click(submitButton());
    expect(await screen.findByText('Going on with your earlier upload of this photo.')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('aria-valuenow', '60');

    act(() => vi.mocked(sendResumably).mock.calls[0]?.[1]?.onStatus?.('waiting'));
    expect(await screen.findByText('Connection lost. The upload will go on by itself when you are back online.')).toBeInTheDocument();
    // Waiting is not failing: no toast, and the member may still cancel.
    expect(getToasts()).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeEnabled();
    goOn();
    expect(await screen.findByRole('heading', { name: 'Dashboard stub' })).toBeInTheDocument();
  });

  it('deletes the sent bytes on Cancel, and keeps them when the member leaves the page', async () => {
    const { user, transfers, unmount } = setup({
      transfer: ({ options }) =>
        new Promise<void>((_resolve, reject) =>
          options.signal?.addEventListener('abort', () => reject(new DOMException('The upload was aborted.', 'AbortError'))),
        ),
    });
    await chooseFile(user);
    await agreeToTerms(user);
    await user.click(submitButton());
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(transfers[0]?.options.signal?.aborted).toBe(true);
    expect(transfers[0]?.options.signal?.reason).not.toBe(LEFT_PAGE);
    // Cancelled by the member: nothing failed.
    await waitFor(() => expect(submitButton()).toBeEnabled());
    expect(getToasts()).toHaveLength(0);

    await user.click(submitButton());
    await waitFor(() => expect(transfers).toHaveLength(2));
    unmount();
    await waitFor(() => expect(transfers[1]?.options.signal?.aborted).toBe(true));
    expect(transfers[1]?.options.signal?.reason).toBe(LEFT_PAGE);
  });

  it('offers to go on with an upload that stopped before, or to discard it', async () => {
    const stopped: UnfinishedUpload = { id: UPLOAD_ID, filename: 'PXL_20251103_142233517.jpg', percent: 45, storageKey: 'tus::key' };
    const whole: UnfinishedUpload = { id: 'f'.repeat(32), filename: 'IMG_0042.HEIC', percent: 100, storageKey: 'tus::other' };
    let remembered = [stopped, whole];
    vi.mocked(findUnfinishedUploads).mockImplementation(() => Promise.resolve(remembered));
    vi.mocked(discardUnfinishedUpload).mockImplementation(() => {
      remembered = [];
      return Promise.resolve();
    });
    const { user } = setup();
    const note = await screen.findByRole('region', { name: 'Unfinished uploads' });
    expect(note).toHaveTextContent('Your upload of PXL_20251103_142233517.jpg stopped at 45%. Choose the same photo to go on from there.');
    expect(note).toHaveTextContent('Your upload of IMG_0042.HEIC arrived whole but was not sent for review. Choose the same photo to send it.');
    await user.click(within(note).getByRole('button', { name: 'Discard the unfinished upload of PXL_20251103_142233517.jpg' }));
    expect(discardUnfinishedUpload).toHaveBeenCalledWith(stopped);
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Unfinished uploads' })).not.toBeInTheDocument());
  });

  it('says in plain words why a dropped or chosen file was refused', async () => {
    const { user } = setup();
    const zoneInput = await screen.findByLabelText('Photo file');
    const gif = photoFile('funny.gif', 'image/gif');
    await userEvent.setup({ applyAccept: false }).upload(zoneInput, gif);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Only image files (PNG, JPG, JPEG) up to 10MB are accepted');
    expect(alert).toHaveTextContent('funny.gif: File type must be JPG, PNG, HEIC or WebP');
    expect(alert).not.toHaveTextContent('image/');
    expect(submitButton()).toBeDisabled();

    const huge = photoFile('PXL_20251103_142233517.jpg');
    Object.defineProperty(huge, 'size', { value: 10 * 1024 * 1024 + 1 });
    await user.upload(zoneInput, huge);
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('PXL_20251103_142233517.jpg: File is larger than 10 MB'));
    expect(screen.getByRole('alert')).not.toHaveTextContent('10485760');

    await user.upload(zoneInput, new File([], 'empty.jpg', { type: 'image/jpeg' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('empty.jpg: File is smaller than 1 byte (it is empty)'));

    fireEvent.drop(screen.getByRole('group', { name: 'Photo drop zone' }), {
      dataTransfer: { files: [photoFile('a.jpg'), photoFile('b.jpg')], types: ['Files'] },
    });
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Too many files: choose one photo at a time'));
    // Said once for the drop, not once per file.
    expect(within(screen.getByRole('alert')).getAllByRole('listitem')).toHaveLength(1);
    expect(submitButton()).toBeDisabled();
  });

  it('shows a long phone file name whole, breakable after its separators', async () => {
    const { user } = setup();
    const name = 'IMG_20251103_142233_some_long_name_iphone_13_pro_max.jpg';
    await chooseFile(user, photoFile(name));
    const shown = await screen.findByTestId('chosen-file-name');
    expect(shown).toHaveTextContent(name);
    expect(shown.querySelectorAll('wbr').length).toBeGreaterThan(5);
    // Both controls stay reachable by name beside it.
    expect(screen.getByRole('button', { name: 'Change photo' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Remove photo' })).toBeEnabled();
  });

  it('decodes a HEIC photo in a worker, then draws bars on its preview and uploads the original file', async () => {
    const workers = stubPreviewWorker(decodedPreview);
    const { user, transfers, requests } = setup();
    const heic = photoFile('IMG_0042.HEIC', '');
    await chooseFile(user, heic);

    expect(await screen.findByRole('status')).toHaveTextContent('Preparing preview...');
    const preview = await screen.findByRole('img', { name: 'Preview of IMG_0042.HEIC' });
    expect(preview).toHaveAttribute('src', 'blob:heic-preview');
    expect(screen.getByText('Drag on the photo to hide private details with black bars.')).toBeInTheDocument();

    // One worker, asked for a bounded preview of the file itself, and ended once it answered.
    expect(workers).toHaveLength(1);
    expect(String(workers[0]?.url)).toMatch(/\/workers\/heic-preview\.worker\.ts\b/);
    expect(workers[0]?.options).toMatchObject({ type: 'module' });
    expect(workers[0]?.requests).toEqual([{ file: heic, maxSide: 2048, quality: 0.9 }]);
    expect(workers[0]?.terminated).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Add bar' }));
    await agreeToTerms(user);
    await user.click(submitButton());
    expect(await screen.findByRole('heading', { name: 'Dashboard stub' })).toBeInTheDocument();
    // The original bytes go up, not the preview: the server converts HEIC itself.
    const sent = transfers[0]!.file;
    expect(sent.name).toBe('IMG_0042.HEIC');
    expect(sent.size).toBe('crack'.length);
    expect(sent.type).not.toBe('image/jpeg');
    const barRequest = requests.find((request) => request.url === '/api/photos/5/privacy-bars');
    expect(barRequest?.json).toEqual({ bars: [{ x: 35, y: 45, width: 30, height: 10 }] });
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:heic-preview');
  });

  it('says when a HEIC photo cannot be previewed, and still uploads it', async () => {
    stubPreviewWorker(() => ({ type: 'error', reason: 'unreadable', detail: 'No image found in the file' }));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { user, transfers } = setup();
    await chooseFile(user, photoFile('IMG_20251103_142233_some_long_name_iphone_13_pro_max.HEIC', 'image/heic'));

    const failure = await screen.findByRole('alert');
    expect(failure).toHaveTextContent('Preview not available');
    expect(failure).toHaveTextContent(
      "This HEIC photo couldn't be read here, so privacy bars can't be drawn before the upload. You can still upload IMG_20251103_142233_some_long_name_iphone_13_pro_max.HEIC, then add bars from My Dashboard.",
    );
    expect(screen.queryByRole('button', { name: 'Add bar' })).not.toBeInTheDocument();
    expect(warn).toHaveBeenCalledWith('No preview for this HEIC photo:', 'No image found in the file');

    await agreeToTerms(user);
    await user.click(submitButton());
    expect(await screen.findByRole('heading', { name: 'Dashboard stub' })).toBeInTheDocument();
    expect(transfers[0]?.file.name).toBe('IMG_20251103_142233_some_long_name_iphone_13_pro_max.HEIC');
  });

  it('falls back the same way where the browser has no workers', async () => {
    vi.stubGlobal('Worker', undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { user } = setup();
    await chooseFile(user, photoFile('IMG_0042.heif', 'image/heif'));
    expect(await screen.findByRole('alert')).toHaveTextContent("This browser couldn't prepare a preview");
    expect(submitButton()).toBeEnabled();
  });

  it('stops decoding the previous HEIC photo when another one is chosen', async () => {
    const workers = stubPreviewWorker(decodedPreview);
    const { user } = setup();
    await chooseFile(user, photoFile('first.heic', 'image/heic'));
    await screen.findByRole('status');
    await user.click(screen.getByRole('button', { name: 'Remove photo' }));
    expect(workers[0]?.terminated).toBe(true);
    await chooseFile(user, photoFile('second.heic', 'image/heic'));
    expect(await screen.findByRole('img', { name: 'Preview of second.heic' })).toBeInTheDocument();
    expect(workers).toHaveLength(2);
  });

  it('has one heading for the page and names the tab after it', async () => {
    setup();
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Snap a Crack');
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    await waitFor(() => expect(document.title).toBe('Snap a Crack · Snap Cracks'));
  });
});
