import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { redirectTo } from '@/lib/browser';
import { getToasts } from '@/lib/toast';
import { mockFetch, type MockHandler } from '@/test/fetch-mock';
import { makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';
import { mockXhr, type XhrMockHandler } from '@/test/xhr-mock';

// The dashboard is another screen's business: a stub keeps its calls and toasts out of these tests.
vi.mock('@/pages/dashboard', () => ({ DashboardPage: () => <h1>Dashboard stub</h1> }));

const photoFile = (name = 'wall.jpg', type = 'image/jpeg') => new File(['crack'], name, { type });

function setup({
  upload = { status: 201, body: { id: 5, filename: 'stored.jpg' }, progress: [[40, 100], [100, 100]] },
  bars = { body: { bars: [] } },
}: { upload?: XhrMockHandler; bars?: MockHandler } = {}) {
  const requests = mockFetch({
    'GET /api/auth/user': { body: makeUser() },
    'POST /api/photos/5/privacy-bars': bars,
  });
  const uploads = mockXhr({ 'POST /api/photos': upload });
  const rendered = renderApp('/upload');
  const user = userEvent.setup();
  return { requests, uploads, user, ...rendered };
}

const submitButton = () => screen.getByRole('button', { name: /^(Upload Photo|Save Privacy Bars)$/ });
const location = () => screen.getByTestId('location').textContent;

async function chooseFile(user: ReturnType<typeof userEvent.setup>, file = photoFile()) {
  await user.upload(await screen.findByLabelText('Photo file'), file);
}

async function agreeToTerms(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('checkbox', { name: /I agree to the Terms of Service/ }));
}

beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:preview');
  URL.revokeObjectURL = vi.fn();
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
    const { user, uploads } = setup();
    await chooseFile(user);
    await user.click(submitButton());
    expect(await screen.findByText('You must agree to the terms of service')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: /I agree/ })).toHaveAttribute('aria-invalid', 'true');
    expect(uploads).toHaveLength(0);

    await agreeToTerms(user);
    await waitFor(() => expect(screen.queryByText('You must agree to the terms of service')).not.toBeInTheDocument());
  });

  it('uploads the photo with its description, then posts the bars, then goes to the dashboard', async () => {
    const { user, uploads, requests, queryClient } = setup({ bars: { body: { bars: [{ x: 35, y: 45, width: 30, height: 10 }] } } });
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

    expect(uploads).toHaveLength(1);
    expect(uploads[0]?.withCredentials).toBe(true);
    expect((uploads[0]?.form?.get('photo') as File).name).toBe('wall.jpg');
    expect(uploads[0]?.form?.get('description')).toBe('A crack shaped like a river');
    const barRequest = requests.find((request) => request.url === '/api/photos/5/privacy-bars');
    expect(barRequest?.method).toBe('POST');
    expect(barRequest?.json).toEqual({ bars: [{ x: 35, y: 45, width: 30, height: 10 }] });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['/api/user/photos'] });
  });

  it('shows the upload progress while the photo is sent', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { user, requests } = setup({
      upload: async () => {
        await held;
        return { status: 201, body: { id: 5, filename: 'stored.jpg' } };
      },
    });
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

    mockXhr({ 'POST /api/photos': { status: 500, text: '<html>Internal Server Error</html>' } });
    await user.click(submitButton());
    await waitFor(() =>
      expect(getToasts()[0]).toMatchObject({ title: 'Upload Failed', description: 'Failed to upload photo. Please try again.' }),
    );
  });

  it('keeps the uploaded photo when its bars fail, and retries only the bars', async () => {
    let barAttempts = 0;
    const { user, uploads } = setup({
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
    expect(within(screen.getByRole('alert')).getByText(/privacy bars were not saved/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save Privacy Bars' }));
    expect(await screen.findByRole('heading', { name: 'Dashboard stub' })).toBeInTheDocument();
    expect(uploads).toHaveLength(1);
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

  it("shows react-dropzone's messages for a rejected file", async () => {
    const { user } = setup();
    const zoneInput = await screen.findByLabelText('Photo file');
    const gif = photoFile('funny.gif', 'image/gif');
    await userEvent.setup({ applyAccept: false }).upload(zoneInput, gif);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Only image files (PNG, JPG, JPEG) up to 10MB are accepted');
    expect(alert).toHaveTextContent('funny.gif: File type must be');
    expect(submitButton()).toBeDisabled();

    const huge = photoFile('huge.jpg');
    Object.defineProperty(huge, 'size', { value: 10 * 1024 * 1024 + 1 });
    await user.upload(zoneInput, huge);
    expect(await screen.findByText('huge.jpg: File is larger than 10485760 bytes')).toBeInTheDocument();

    fireEvent.drop(screen.getByRole('group', { name: 'Photo drop zone' }), {
      dataTransfer: { files: [photoFile('a.jpg'), photoFile('b.jpg')], types: ['Files'] },
    });
    expect(await screen.findByText('Too many files')).toBeInTheDocument();
    expect(submitButton()).toBeDisabled();
  });

  it('shows a placeholder with the file name for HEIC photos', async () => {
    const { user } = setup();
    await chooseFile(user, photoFile('IMG_0042.HEIC', ''));
    expect(await screen.findByRole('img', { name: 'IMG_0042.HEIC' })).toHaveTextContent('Preview not available');
    expect(URL.createObjectURL).not.toHaveBeenCalled();
    expect(submitButton()).toBeEnabled();
  });
});
