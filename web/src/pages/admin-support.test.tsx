import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { redirectTo } from '@/lib/browser';
import { createQueryClient } from '@/lib/query-client';
import type { ContactFormCounts, ContactFormFilter, ContactFormItem, ContactFormList } from '@/lib/types';
import { CONTACT_FORMS_POLL_MS, contactFormsQueryKey, useNewContactFormCount } from '@/queries/contact';
import { deferred, mockFetch, type MockHandler, type RecordedRequest } from '@/test/fetch-mock';
import { makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

// Each test loads a lazy page and waits on several requests: allow for a busy machine.
vi.setConfig({ testTimeout: 20_000 });

const ADMIN = makeUser({ id: 'admin-1', isAdmin: true });
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

function makeForm(overrides: Partial<ContactFormItem> = {}): ContactFormItem {
  const id = overrides.id ?? 1;
  return {
    id,
    name: `Sender ${id}`,
    email: `sender${id}@example.com`,
    subject: `Subject ${id}`,
    message: `Message ${id}`,
    status: 'new',
    createdAt: minutesAgo(5),
    updatedAt: minutesAgo(5),
    ...overrides,
  };
}

const COUNTS: ContactFormCounts = { new: 2, in_progress: 1, resolved: 3, total: 6 };
const listOf = (items: ContactFormItem[], counts = COUNTS, more: Partial<ContactFormList> = {}): ContactFormList => ({
  items,
  counts,
  total: items.length,
  page: 1,
  totalPages: items.length ? 1 : 0,
  ...more,
});
const listUrl = (filter: ContactFormFilter, page = 1) => `/api/admin/contact-forms?status=${filter}&page=${page}&limit=20`;
const listRequests = (requests: RecordedRequest[], filter?: ContactFormFilter) =>
  requests.filter((r) => r.method === 'GET' && r.url.startsWith(`/api/admin/contact-forms?status=${filter ?? ''}`));

function renderSupport(routes: Record<string, MockHandler>, user = ADMIN) {
  const requests = mockFetch({ 'GET /api/auth/user': { body: user }, ...routes });
  const view = renderApp('/admin/support');
  return { requests, ...view };
}

const messages = async () => within(await screen.findByRole('list', { name: 'Messages' }));

describe('admin support page', () => {
  it('shows Access Denied to a non-admin and never asks for the messages', async () => {
    const { requests } = renderSupport({}, makeUser({ isAdmin: false }));
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
    expect(screen.getByText("You don't have permission to access the admin panel.")).toBeInTheDocument();
    expect(requests.some((r) => r.url.startsWith('/api/admin/contact-forms'))).toBe(false);
  });

  it('opens on the new messages, with the four counters and every detail of each message', async () => {
    const first = makeForm({
      id: 7,
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      subject: 'Broken upload',
      message: 'Line one\nLine two',
      createdAt: minutesAgo(3),
    });
    const second = makeForm({ id: 4, createdAt: minutesAgo(60 * 26) });
    const { requests } = renderSupport({ [`GET ${listUrl('new')}`]: { body: listOf([first, second]) } });

    const list = await messages();
    expect(screen.getByRole('heading', { level: 1, name: 'User Support' })).toBeInTheDocument();
    expect(listRequests(requests).map((r) => r.url)).toEqual([listUrl('new')]);

    const filters = within(screen.getByRole('group', { name: 'Message filters' }));
    expect(filters.getByRole('button', { name: /New Messages/ })).toHaveAttribute('aria-pressed', 'true');
    for (const [label, count] of [
      ['New Messages', '2'],
      ['In Progress', '1'],
      ['Resolved', '3'],
      ['Total Messages', '6'],
    ] as const) {
      expect(filters.getByRole('button', { name: new RegExp(label) })).toHaveTextContent(count);
    }

    const items = list.getAllByRole('listitem');
    expect(items).toHaveLength(2);
    const item = within(list.getByRole('listitem', { name: 'Broken upload' }));
    expect(item.getByText('Ada Lovelace')).toBeInTheDocument();
    expect(item.getByRole('link', { name: 'ada@example.com' })).toHaveAttribute('href', 'mailto:ada@example.com');
    expect(item.getByText('3 minutes ago')).toBeInTheDocument();
    expect(item.getByText((_, node) => node?.tagName === 'P' && node.textContent === 'Line one\nLine two')).toBeInTheDocument();
    expect(item.getByRole('combobox', { name: 'Status of the message from Ada Lovelace' })).toHaveTextContent('New');
    expect(within(list.getByRole('listitem', { name: 'Subject 4' })).getByText('yesterday')).toBeInTheDocument();
  });

  it.each([
    ['Total Messages', 'all', 'No contact forms submitted yet.'],
    ['In Progress', 'in_progress', 'No in progress messages.'],
    ['Resolved', 'resolved', 'No resolved messages.'],
  ] as const)('filters by %s (%s) and says "%s" when there is nothing', async (label, filter, empty) => {
    const { requests } = renderSupport({
      [`GET ${listUrl('new')}`]: { body: listOf([makeForm()]) },
      [`GET ${listUrl(filter)}`]: { body: listOf([]) },
    });
    await messages();
    await userEvent.click(screen.getByRole('button', { name: new RegExp(label) }));
    expect(await screen.findByText(empty)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: new RegExp(label) })).toHaveAttribute('aria-pressed', 'true');
    expect(listRequests(requests, filter)).toHaveLength(1);
    expect(screen.queryByRole('list', { name: 'Messages' })).not.toBeInTheDocument();
  });

  it('says "No new messages." when nothing is new', async () => {
    renderSupport({ [`GET ${listUrl('new')}`]: { body: listOf([], { new: 0, in_progress: 0, resolved: 0, total: 0 }) } });
    expect(await screen.findByText('No new messages.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Total Messages/ })).toHaveTextContent('0');
  });

  it('changes a status from the dropdown, toasts Status Updated and refetches the list', async () => {
    const form = makeForm({ id: 9, name: 'Grace' });
    let answered = listOf([form]);
    const { requests } = renderSupport({
      [`GET ${listUrl('new')}`]: () => ({ body: answered }),
      'PATCH /api/admin/contact-forms/9/status': () => {
        answered = listOf([], { new: 1, in_progress: 1, resolved: 4, total: 6 });
        return { body: { ...form, status: 'resolved' } };
      },
    });
    const list = await messages();
    await userEvent.click(list.getByRole('combobox', { name: 'Status of the message from Grace' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Resolved' }));

    expect(await screen.findByText('Status Updated')).toBeInTheDocument();
    const patch = requests.find((r) => r.method === 'PATCH');
    expect(patch).toMatchObject({ url: '/api/admin/contact-forms/9/status', json: { status: 'resolved' } });
    expect(await screen.findByText('No new messages.')).toBeInTheDocument();
    expect(listRequests(requests, 'new')).toHaveLength(2);
    expect(screen.getByRole('button', { name: /Resolved/ })).toHaveTextContent('4');
  });

  it('shows the chosen status while the change is under way, and the toast when it fails', async () => {
    const form = makeForm({ id: 3, name: 'Linus' });
    const hold = deferred<{ status: number; text: string }>();
    renderSupport({
      [`GET ${listUrl('new')}`]: { body: listOf([form]) },
      'PATCH /api/admin/contact-forms/3/status': () => hold.promise,
    });
    const list = await messages();
    const select = list.getByRole('combobox', { name: 'Status of the message from Linus' });
    await userEvent.click(select);
    await userEvent.click(await screen.findByRole('option', { name: 'In Progress' }));
    await waitFor(() => expect(select).toBeDisabled());
    expect(select).toHaveTextContent('In Progress');

    hold.resolve({ status: 500, text: 'boom' });
    expect(await screen.findByText('Failed to update contact form status.')).toBeInTheDocument();
    await waitFor(() => expect(select).toBeEnabled());
    expect(select).toHaveTextContent('New');
  });

  it('signs the admin in again when the session ended', async () => {
    const form = makeForm({ id: 5, name: 'Ken' });
    renderSupport({
      [`GET ${listUrl('new')}`]: { body: listOf([form]) },
      'PATCH /api/admin/contact-forms/5/status': { status: 401, text: '{"message":"Unauthorized"}' },
    });
    const list = await messages();
    await userEvent.click(list.getByRole('combobox', { name: 'Status of the message from Ken' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Resolved' }));
    expect(await screen.findByText('You are logged out. Logging in again...')).toBeInTheDocument();
    await waitFor(() => expect(redirectTo).toHaveBeenCalledWith('/api/login'), { timeout: 2000 });
    expect(screen.queryByText('Failed to update contact form status.')).not.toBeInTheDocument();
  });

  it('polls the list every 30 seconds', async () => {
    const { queryClient } = renderSupport({ [`GET ${listUrl('new')}`]: { body: listOf([makeForm()]) } });
    await messages();
    const query = queryClient.getQueryCache().findAll({ queryKey: contactFormsQueryKey })[0];
    expect(CONTACT_FORMS_POLL_MS).toBe(30_000);
    expect((query?.options as { refetchInterval?: unknown }).refetchInterval).toBe(30_000);
  });

  it('pages through a long list', async () => {
    const { requests } = renderSupport({
      [`GET ${listUrl('new')}`]: { body: listOf([makeForm({ id: 30 })], COUNTS, { total: 25, page: 1, totalPages: 2 }) },
      [`GET ${listUrl('new', 2)}`]: { body: listOf([makeForm({ id: 5 })], COUNTS, { total: 25, page: 2, totalPages: 2 }) },
    });
    await messages();
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 2 of 2')).toBeInTheDocument();
    expect((await messages()).getByRole('listitem', { name: 'Subject 5' })).toBeInTheDocument();
    expect(listRequests(requests).map((r) => r.url)).toEqual([listUrl('new'), listUrl('new', 2)]);
  });

  it('offers to try again when the list cannot be loaded', async () => {
    let fail = true;
    renderSupport({ [`GET ${listUrl('new')}`]: () => (fail ? { status: 500, text: 'boom' } : { body: listOf([makeForm()]) }) });
    expect(await screen.findByText('Could not load the messages')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect((await messages()).getAllByRole('listitem')).toHaveLength(1);
  });
});

describe('useNewContactFormCount', () => {
  function Probe() {
    const count = useNewContactFormCount();
    return <output data-testid="count">{count === undefined ? 'unknown' : String(count)}</output>;
  }
  const renderProbe = () =>
    render(
      <QueryClientProvider client={createQueryClient()}>
        <Probe />
      </QueryClientProvider>,
    );

  it('answers how many messages are new, for an admin', async () => {
    const requests = mockFetch({
      'GET /api/auth/user': { body: ADMIN },
      'GET /api/admin/contact-forms?status=new&page=1&limit=1': {
        body: listOf([makeForm()], { new: 142, in_progress: 0, resolved: 0, total: 142 }),
      },
    });
    renderProbe();
    await waitFor(() => expect(screen.getByTestId('count')).toHaveTextContent('142'));
    expect(requests.filter((r) => r.url.startsWith('/api/admin/contact-forms'))).toHaveLength(1);
  });

  it('asks nothing for anyone else', async () => {
    const requests = mockFetch({ 'GET /api/auth/user': { body: makeUser({ isAdmin: false }) } });
    renderProbe();
    await waitFor(() => expect(requests.some((r) => r.url === '/api/auth/user')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByTestId('count')).toHaveTextContent('unknown');
    expect(requests.some((r) => r.url.startsWith('/api/admin/contact-forms'))).toBe(false);
  });
});
