import { StrictMode } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders } from '@/app';
import { createQueryClient } from '@/lib/query-client';
import { AppRoutes } from '@/routes/app-routes';
import { mockFetch, type MockHandler } from '@/test/fetch-mock';
import { makeUser } from '@/test/fixtures';

// Each test loads a lazy page and waits on several requests: allow for a busy machine.
vi.setConfig({ testTimeout: 20_000 });

function LocationProbe() {
  const location = useLocation();
  return (
    <output data-testid="location" hidden>
      {location.pathname + location.search}
    </output>
  );
}

function renderSetup(path = '/google-drive-setup', routes: Record<string, MockHandler> = {}, signedIn = false) {
  const requests = mockFetch({
    'GET /api/auth/user': signedIn ? { body: makeUser() } : { status: 401, text: 'Unauthorized' },
    ...routes,
  });
  // StrictMode as in main.tsx: its doubled effects must not read or toast the callback twice.
  render(
    <StrictMode>
      <AppProviders queryClient={createQueryClient()}>
        <MemoryRouter initialEntries={[path]}>
          <AppRoutes />
          <LocationProbe />
        </MemoryRouter>
      </AppProviders>
    </StrictMode>,
  );
  return requests;
}

const tokenField = () => screen.findByLabelText('Refresh Token');

describe('google drive setup: callback parameters', () => {
  it('shows the token from the callback, toasts Success and removes it from the address', async () => {
    renderSetup('/google-drive-setup?token=1%2F%2Fabc-token&keep=1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Google Drive Setup' })).toBeInTheDocument();
    expect(await tokenField()).toHaveValue('1//abc-token');
    expect(await screen.findByText('Success')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/google-drive-setup\?keep=1$/));
    expect(screen.getByText('GOOGLE_REFRESH_TOKEN')).toBeInTheDocument();
    expect(screen.getByText('STORAGE_TYPE=drive')).toBeInTheDocument();
  });

  it('toasts a callback error and removes it from the address', async () => {
    renderSetup('/google-drive-setup?error=access_denied', {}, true);
    expect(await screen.findByText('Failed to generate refresh token via OAuth callback.')).toBeInTheDocument();
    expect(screen.getByText('access_denied')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/google-drive-setup$/));
    expect(screen.queryByLabelText('Refresh Token')).not.toBeInTheDocument();
    expect(screen.getByText('Complete steps 1 and 2 and your refresh token will appear here.')).toBeInTheDocument();
  });

  it('leaves a plain visit alone', async () => {
    renderSetup();
    expect(await screen.findByRole('heading', { name: 'Instructions' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/google-drive-setup$/);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});

describe('google drive setup: step 1', () => {
  it('opens the authorization URL in a new tab', async () => {
    const tab = { closed: false, opener: {} as unknown, location: { href: '' }, close: vi.fn() };
    const open = vi.fn(() => tab as unknown as Window);
    vi.stubGlobal('open', open);
    const requests = renderSetup('/google-drive-setup', {
      'GET /api/google-drive/auth-url': { body: { authUrl: 'https://accounts.google.com/o/oauth2/auth?x=1' } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Open Google Authorization' }));
    await waitFor(() => expect(tab.location.href).toBe('https://accounts.google.com/o/oauth2/auth?x=1'));
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(tab.opener).toBeNull();
    expect(requests.some((request) => request.url === '/api/google-drive/auth-url')).toBe(true);
    expect(screen.getByRole('link', { name: /Open it here/ })).toHaveAttribute(
      'href',
      'https://accounts.google.com/o/oauth2/auth?x=1',
    );
  });

  it('toasts the server message when the URL cannot be generated', async () => {
    const tab = { closed: false, opener: null, location: { href: '' }, close: vi.fn() };
    vi.stubGlobal('open', vi.fn(() => tab as unknown as Window));
    renderSetup('/google-drive-setup', {
      'GET /api/google-drive/auth-url': { status: 500, body: { message: 'Google OAuth is not configured' } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Open Google Authorization' }));
    expect(await screen.findByText('Failed to generate authorization URL')).toBeInTheDocument();
    expect(screen.getByText('Google OAuth is not configured')).toBeInTheDocument();
    expect(tab.close).toHaveBeenCalled();
    expect(tab.location.href).toBe('');
  });

  it('never opens a non-web URL', async () => {
    const tab = { closed: false, opener: null, location: { href: '' }, close: vi.fn() };
    vi.stubGlobal('open', vi.fn(() => tab as unknown as Window));
    renderSetup('/google-drive-setup', { 'GET /api/google-drive/auth-url': { body: { authUrl: 'javascript:alert(1)' } } });
    await userEvent.click(await screen.findByRole('button', { name: 'Open Google Authorization' }));
    expect(await screen.findByText('Failed to generate authorization URL')).toBeInTheDocument();
    expect(tab.location.href).toBe('');
  });
});

describe('google drive setup: step 2', () => {
  it('requires a non-blank code', async () => {
    const requests = renderSetup();
    const input = await screen.findByLabelText('Authorization Code');
    await userEvent.click(screen.getByRole('button', { name: 'Generate Refresh Token' }));
    expect(await screen.findByText('Please enter the authorization code')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveFocus();

    await userEvent.type(input, '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Generate Refresh Token' }));
    expect(screen.getByText('Please enter the authorization code')).toBeInTheDocument();
    expect(requests.some((request) => request.url === '/api/google-drive/exchange-token')).toBe(false);
  });

  it('exchanges the trimmed code and shows the token in step 3', async () => {
    const requests = renderSetup('/google-drive-setup', {
      'POST /api/google-drive/exchange-token': { body: { refreshToken: 'refresh-123' } },
    });
    await userEvent.type(await screen.findByLabelText('Authorization Code'), '  4/0Acode  ');
    await userEvent.click(screen.getByRole('button', { name: 'Generate Refresh Token' }));
    expect(await tokenField()).toHaveValue('refresh-123');
    expect(screen.getByText('Success')).toBeInTheDocument();
    expect(requests.find((request) => request.url === '/api/google-drive/exchange-token')?.json).toEqual({
      code: '4/0Acode',
    });
    expect(screen.getByLabelText('Authorization Code')).toHaveValue('');
  });

  it('toasts a failed exchange with the server message', async () => {
    renderSetup('/google-drive-setup', {
      'POST /api/google-drive/exchange-token': { status: 400, body: { message: 'invalid_grant' } },
    });
    await userEvent.type(await screen.findByLabelText('Authorization Code'), 'bad-code');
    await userEvent.click(screen.getByRole('button', { name: 'Generate Refresh Token' }));
    expect(await screen.findByText('Failed to exchange authorization code')).toBeInTheDocument();
    expect(screen.getByText('invalid_grant')).toBeInTheDocument();
    expect(screen.queryByLabelText('Refresh Token')).not.toBeInTheDocument();
  });
});

describe('google drive setup: step 3', () => {
  it('copies the token and toasts Copied', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderSetup('/google-drive-setup?token=tok-456');
    await tokenField();
    const step = within(screen.getByRole('region', { name: /Store the Refresh Token/ }));
    await user.click(step.getByRole('button', { name: 'Copy Token' }));
    expect(writeText).toHaveBeenCalledWith('tok-456');
    expect(await screen.findByText('Copied')).toBeInTheDocument();
  });

  it('selects the token when the clipboard is refused', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(async () => {
      throw new Error('denied');
    });
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderSetup('/google-drive-setup?token=tok-789');
    const field = (await tokenField()) as HTMLTextAreaElement;
    await user.click(screen.getByRole('button', { name: 'Copy Token' }));
    expect(await screen.findByText('Copy failed')).toBeInTheDocument();
    expect(field).toHaveFocus();
  });
});
