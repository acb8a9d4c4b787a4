import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { redirectTo } from '@/lib/browser';
import { deferred, mockFetch, type MockResponse } from '@/test/fetch-mock';
import { EMPTY_GALLERY, makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

function setup(acceptResponse: () => MockResponse | Promise<MockResponse>) {
  let accepted = false;
  const requests = mockFetch({
    'GET /api/auth/user': () => ({ body: makeUser({ hasAcceptedTerms: accepted }) }),
    'POST /api/auth/accept-terms': async () => {
      const response = await acceptResponse();
      accepted = (response.status ?? 200) < 400;
      return response;
    },
    'GET /api/gallery/top-rated?page=1&limit=9': { body: EMPTY_GALLERY },
  });
  renderApp('/terms-acceptance');
  return requests;
}

const location = () => screen.getByTestId('location').textContent;

describe('terms acceptance', () => {
  it('keeps Accept and Continue disabled until the box is checked', async () => {
    setup(() => ({ body: {} }));
    const accept = await screen.findByRole('button', { name: 'Accept and Continue' });
    expect(accept).toBeDisabled();
    expect(
      screen.getByText('You must accept the Terms of Service, Privacy Policy, and Community Guidelines to continue'),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: /I have read and agree/ }));
    expect(accept).toBeEnabled();
    await userEvent.click(screen.getByRole('checkbox', { name: /I have read and agree/ }));
    expect(accept).toBeDisabled();
  });

  it('links the checkbox label to the three legal sections', async () => {
    setup(() => ({ body: {} }));
    await screen.findByRole('checkbox');
    const label = screen.getByText(/I have read and agree/);
    const hrefs = Array.from(label.querySelectorAll('a')).map((link) => link.getAttribute('href'));
    expect(hrefs).toEqual(['/legal#terms', '/legal#privacy', '/legal#community']);
  });

  it('expands the details of each document', async () => {
    setup(() => ({ body: {} }));
    const trigger = await screen.findByRole('button', { name: 'Privacy Policy' });
    expect(trigger).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(trigger);
    expect(trigger).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('Your email address is never shown publicly.')).toBeVisible();
  });

  it('shows Processing..., refetches the user, toasts and goes home after 100 ms', async () => {
    const gate = deferred<MockResponse>();
    const requests = setup(() => gate.promise);
    await userEvent.click(await screen.findByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Accept and Continue' }));

    expect(await screen.findByRole('button', { name: 'Processing...' })).toBeDisabled();
    expect(requests.find((request) => request.method === 'POST')?.json).toEqual({ hasAcceptedTerms: true });

    gate.resolve({ body: { success: true } });
    expect(await screen.findByText('Terms Accepted')).toBeInTheDocument();
    const toastShownAt = Date.now();
    expect(screen.getByText('Welcome to Snap Cracks! Your account setup is complete.')).toBeInTheDocument();
    expect(requests.filter((request) => request.url === '/api/auth/user')).toHaveLength(2);
    expect(location()).toBe('/terms-acceptance');

    await waitFor(() => expect(location()).toBe('/'));
    expect(Date.now() - toastShownAt).toBeGreaterThanOrEqual(80);
    expect(await screen.findByRole('heading', { name: /Welcome back/ })).toBeInTheDocument();
  });

  it('shows the server message when accepting fails', async () => {
    setup(() => ({ status: 400, text: '{"message":"You must accept the Terms of Service, Privacy Policy, and Community Guidelines to continue"}' }));
    await userEvent.click(await screen.findByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Accept and Continue' }));
    const toastRegion = await screen.findByRole('region', { name: /notifications/i });
    await waitFor(() =>
      expect(toastRegion).toHaveTextContent(
        'You must accept the Terms of Service, Privacy Policy, and Community Guidelines to continue',
      ),
    );
    expect(location()).toBe('/terms-acceptance');
  });

  it('falls back to a generic message when the server gives none', async () => {
    setup(() => ({ status: 500, text: 'Internal Server Error' }));
    await userEvent.click(await screen.findByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Accept and Continue' }));
    expect(await screen.findByText('Failed to accept terms. Please try again.')).toBeInTheDocument();
  });

  it('signs out on Cancel', async () => {
    setup(() => ({ body: {} }));
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(redirectTo).toHaveBeenCalledWith('/api/logout');
  });
});
