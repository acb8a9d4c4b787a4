import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { redirectTo } from '@/lib/browser';
import type { AdminUser, AdminUserPage } from '@/lib/types';
import { mockFetch, deferred, type MockHandler, type RecordedRequest } from '@/test/fetch-mock';
import { makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

// Each test loads a lazy page and waits on several requests: allow for a busy machine.
vi.setConfig({ testTimeout: 20_000 });

const ME = makeUser({ id: 'admin-1', isAdmin: true, displayName: 'Boss', email: 'boss@example.com' });

function adminUser(overrides: Partial<AdminUser> & Pick<AdminUser, 'id'>): AdminUser {
  return {
    displayName: null,
    email: `${overrides.id}@example.com`,
    avatar: null,
    firstName: null,
    lastName: null,
    isEnabled: true,
    isAdmin: false,
    createdAt: '2025-07-28T10:00:00.000Z',
    ...overrides,
  };
}

const BOSS = adminUser({ id: 'admin-1', displayName: 'Boss', email: 'boss@example.com', isAdmin: true, createdAt: '2025-07-01T10:00:00.000Z' });
const ADA = adminUser({ id: 'ada', displayName: 'Ada the Cracker', firstName: 'Ada', lastName: 'Lovelace', avatar: '/uploads/ada.webp' });
const GRACE = adminUser({ id: 'grace', firstName: 'Grace', lastName: 'Hopper', isEnabled: false, createdAt: '2025-07-30T10:00:00.000Z' });
const OTHER_ADMIN = adminUser({ id: 'chief', displayName: 'Chief', isAdmin: true });

const page = (users: AdminUser[], total = users.length, totalPages = Math.max(1, Math.ceil(total / 20))): AdminUserPage => ({ users, total, totalPages });
const LIST_URL = '/api/admin/users?page=1&limit=20';
const LIST = `GET ${LIST_URL}`;

/** The users as the server keeps them: PATCH changes, DELETE removes, GET lists what is left. */
function fakeServer(initial: AdminUser[]): Record<string, MockHandler> {
  let users = [...initial];
  const routes: Record<string, MockHandler> = { [LIST]: () => ({ body: page(users) }) };
  for (const user of initial) {
    routes[`PATCH /api/admin/users/${user.id}`] = (request) => {
      users = users.map((u) => (u.id === user.id ? { ...u, ...(request.json as Partial<AdminUser>) } : u));
      return { body: users.find((u) => u.id === user.id) };
    };
    routes[`DELETE /api/admin/users/${user.id}`] = () => {
      users = users.filter((u) => u.id !== user.id);
      return { status: 204 };
    };
  }
  return routes;
}

/** The toast showing `title`, to read its description. */
async function findToast(title: string): Promise<HTMLElement> {
  return (await screen.findByText(title)).closest('li')!;
}

/** Lays the page out as on a tablet or wider (a table) instead of a phone (cards). */
function wideScreen() {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query === '(min-width: 768px)',
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  }));
}

function renderUsers(routes: Record<string, MockHandler> = {}, me = ME) {
  const requests = mockFetch({
    'GET /api/auth/user': { body: me },
    [LIST]: { body: page([GRACE, ADA, OTHER_ADMIN, BOSS]) },
    ...routes,
  });
  return { requests, ...renderApp('/admin/users') };
}

const count = (requests: RecordedRequest[], method: string, url: string) => requests.filter((r) => r.method === method && r.url === url).length;
const findCard = (name: string) => screen.findByRole('listitem', { name });
async function findRow(name: RegExp): Promise<HTMLElement> {
  const table = await screen.findByRole('table', { name: 'Users' });
  const cell = await within(table).findByRole('rowheader', { name });
  return cell.closest('tr')!;
}

describe('user management: who sees it', () => {
  it('tells a member they have no access and never asks for the users', async () => {
    const { requests } = renderUsers({}, makeUser());
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
    expect(screen.getByText("You don't have permission to access the admin panel.")).toBeInTheDocument();
    expect(requests.some((r) => r.url.startsWith('/api/admin/users'))).toBe(false);
  });

  it('shows a skeleton while loading, then the users', async () => {
    const pending = deferred<{ body: AdminUserPage }>();
    renderUsers({ [LIST]: () => pending.promise });
    expect(await screen.findByRole('heading', { level: 1, name: 'User Management' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Loading users' })).toBeInTheDocument();
    pending.resolve({ body: page([ADA]) });
    expect(await findCard('Ada the Cracker')).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading users' })).not.toBeInTheDocument();
    expect(screen.getByText('1 user')).toBeInTheDocument();
  });
});

describe('user management: the list', () => {
  it('shows a table from tablet width up: name, email, enabled, admin and joined date', async () => {
    wideScreen();
    renderUsers();
    const ada = within(await findRow(/Ada the Cracker/));
    expect(ada.getByText('Ada Lovelace')).toBeInTheDocument(); // the sign-in name, under the display name
    expect(ada.getByRole('cell', { name: 'ada@example.com' })).toBeInTheDocument();
    expect(ada.getByRole('switch', { name: 'Account enabled: Ada the Cracker' })).toBeChecked();
    expect(ada.getByRole('switch', { name: 'Administrator: Ada the Cracker' })).not.toBeChecked();
    expect(ada.getByText('Jul 28, 2025')).toBeInTheDocument();
    // No display name: the first and last name (SPEC §3), and a disabled account's switch is off.
    const grace = within(await findRow(/Grace Hopper/));
    expect(grace.getByRole('switch', { name: 'Account enabled: Grace Hopper' })).not.toBeChecked();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['User', 'Email', 'Enabled', 'Admin', 'Joined', 'Actions']);
    expect(screen.getByText('4 users')).toBeInTheDocument();
  });

  it('shows cards on a phone', async () => {
    renderUsers();
    const list = await screen.findByRole('list', { name: 'Users' });
    expect(within(list).getAllByRole('listitem').map((item) => item.getAttribute('aria-label'))).toEqual(['Grace Hopper', 'Ada the Cracker', 'Chief', 'Boss']);
    const card = within(await findCard('Ada the Cracker'));
    expect(card.getByText('ada@example.com')).toBeInTheDocument();
    expect(card.getByRole('switch', { name: 'Account enabled: Ada the Cracker' })).toBeChecked();
    expect(card.getByRole('button', { name: 'Edit Ada the Cracker' })).toBeEnabled();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('marks the admin’s own account and locks its switches, so they cannot lock themselves out', async () => {
    renderUsers();
    const own = within(await findCard('Boss'));
    expect(own.getByText('You')).toBeInTheDocument();
    expect(own.getByRole('switch', { name: 'Account enabled: Boss' })).toBeDisabled();
    expect(own.getByRole('switch', { name: 'Administrator: Boss' })).toHaveAccessibleDescription(
      'You cannot disable or remove admin rights from your own account.',
    );
  });

  it('disables Delete for admins and says why', async () => {
    renderUsers();
    const chief = within(await findCard('Chief'));
    const button = chief.getByRole('button', { name: 'Delete Chief' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription('Admin accounts cannot be deleted');
    expect(within(await findCard('Ada the Cracker')).getByRole('button', { name: 'Delete Ada the Cracker' })).toBeEnabled();
  });

  it('searches once the typing pauses, from the first page', async () => {
    const { requests } = renderUsers({
      'GET /api/admin/users?page=1&limit=20&q=ada+love': { body: page([ADA]) },
    });
    await findCard('Grace Hopper');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search users' }), 'ada love');
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Grace Hopper' })).not.toBeInTheDocument());
    expect(screen.getByRole('listitem', { name: 'Ada the Cracker' })).toBeInTheDocument();
    expect(screen.getByText('1 user matching “ada love”')).toBeInTheDocument();
    // One request for the whole phrase, not one per key.
    expect(requests.filter((r) => r.url.includes('q=')).map((r) => r.url)).toEqual(['/api/admin/users?page=1&limit=20&q=ada+love']);
  });

  it('says so when nobody matches', async () => {
    renderUsers({ 'GET /api/admin/users?page=1&limit=20&q=nobody': { body: page([], 0, 0) } });
    await findCard('Ada the Cracker');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search users' }), 'nobody');
    expect(await screen.findByRole('heading', { name: 'No users found' })).toBeInTheDocument();
  });

  it('pages with Previous and Next', async () => {
    const many = Array.from({ length: 20 }, (_, i) => adminUser({ id: `u${i}`, displayName: `User ${i}` }));
    const { requests } = renderUsers({
      [LIST]: { body: page(many, 25) },
      'GET /api/admin/users?page=2&limit=20': { body: page([ADA], 25) },
    });
    await findCard('User 0');
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await findCard('Ada the Cracker')).toBeInTheDocument();
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Users' })).toHaveFocus();
    expect(count(requests, 'GET', '/api/admin/users?page=2&limit=20')).toBe(1);
  });

  it('offers to try again when the list fails to load', async () => {
    let fail = true;
    renderUsers({ [LIST]: () => (fail ? { status: 500, text: 'boom' } : { body: page([ADA]) }) });
    expect(await screen.findByText('Could not load users')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await findCard('Ada the Cracker')).toBeInTheDocument();
  });

  it('signs in again when the session is gone', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderUsers({ [LIST]: { status: 401, text: '{"message":"Unauthorized"}' } });
      expect(await screen.findByText('You are logged out. Logging in again...')).toBeInTheDocument();
      await vi.advanceTimersByTimeAsync(500);
      expect(redirectTo).toHaveBeenCalledWith('/api/login');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('user management: switches', () => {
  it('asks before disabling an account; Cancel sends nothing and gives focus back to the switch', async () => {
    const { requests } = renderUsers(fakeServer([GRACE, ADA, OTHER_ADMIN, BOSS]));
    const card = within(await findCard('Ada the Cracker'));
    const enabled = card.getByRole('switch', { name: 'Account enabled: Ada the Cracker' });
    await userEvent.click(enabled);
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Disable Ada the Cracker?' }));
    expect(confirm.getByText(/They will be signed out and cannot sign in until enabled again\./)).toBeInTheDocument();
    expect(enabled).toBeChecked();
    await userEvent.click(confirm.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    await waitFor(() => expect(enabled).toHaveFocus());
    expect(requests.some((r) => r.method === 'PATCH')).toBe(false);
    expect(enabled).toBeChecked();
  });

  it('disables an account with one PATCH once confirmed, and says so', async () => {
    const { requests } = renderUsers(fakeServer([GRACE, ADA, OTHER_ADMIN, BOSS]));
    const card = within(await findCard('Ada the Cracker'));
    await userEvent.click(card.getByRole('switch', { name: 'Account enabled: Ada the Cracker' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Disable Account' }));
    expect(await screen.findByText('Success')).toBeInTheDocument();
    expect(screen.getByText("Ada the Cracker's account has been disabled.")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(requests.filter((r) => r.method === 'PATCH').map((r) => r.json)).toEqual([{ isEnabled: false }]);
    await waitFor(() => expect(card.getByRole('switch', { name: 'Account enabled: Ada the Cracker' })).not.toBeChecked());
    // A confirmed change is not offered for Undo.
    expect(screen.queryByRole('button', { name: 'Undo' })).not.toBeInTheDocument();
  });

  it('makes a member an admin once confirmed', async () => {
    const { requests } = renderUsers({ 'PATCH /api/admin/users/ada': { body: { ...ADA, isAdmin: true } } });
    await userEvent.click(within(await findCard('Ada the Cracker')).getByRole('switch', { name: 'Administrator: Ada the Cracker' }));
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Make Ada the Cracker an administrator?' }));
    expect(requests.some((r) => r.method === 'PATCH')).toBe(false);
    await userEvent.click(confirm.getByRole('button', { name: 'Make Administrator' }));
    expect(await screen.findByText('Ada the Cracker is now an administrator.')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'PATCH')?.json).toEqual({ isAdmin: true });
  });

  it('asks before removing another admin’s rights', async () => {
    const { requests } = renderUsers({ 'PATCH /api/admin/users/chief': { body: { ...OTHER_ADMIN, isAdmin: false } } });
    await userEvent.click(within(await findCard('Chief')).getByRole('switch', { name: 'Administrator: Chief' }));
    const confirm = within(await screen.findByRole('alertdialog', { name: "Remove Chief's administrator rights?" }));
    await userEvent.click(confirm.getByRole('button', { name: 'Remove Admin Rights' }));
    expect(await screen.findByText('Chief is no longer an administrator.')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'PATCH').map((r) => r.json)).toEqual([{ isAdmin: false }]);
  });

  it('enables an account at once, and Undo on its toast disables it again', async () => {
    const { requests } = renderUsers(fakeServer([GRACE, ADA, OTHER_ADMIN, BOSS]));
    const card = within(await findCard('Grace Hopper'));
    await userEvent.click(card.getByRole('switch', { name: 'Account enabled: Grace Hopper' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(await screen.findByText("Grace Hopper's account has been enabled.")).toBeInTheDocument();
    await waitFor(() => expect(card.getByRole('switch', { name: 'Account enabled: Grace Hopper' })).toBeChecked());
    await userEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText("Grace Hopper's account has been disabled.")).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'PATCH').map((r) => r.json)).toEqual([{ isEnabled: true }, { isEnabled: false }]);
    await waitFor(() => expect(card.getByRole('switch', { name: 'Account enabled: Grace Hopper' })).not.toBeChecked());
    expect(screen.queryByRole('button', { name: 'Undo' })).not.toBeInTheDocument();
  });

  it('toasts Failed to update user account, with the reason, and leaves the switch as it was', async () => {
    renderUsers({ 'PATCH /api/admin/users/ada': { status: 500, text: '' } });
    const card = within(await findCard('Ada the Cracker'));
    await userEvent.click(card.getByRole('switch', { name: 'Administrator: Ada the Cracker' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Make Administrator' }));
    expect(within(await findToast('Failed to update user account')).getByText('Please try again.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(card.getByRole('switch', { name: 'Administrator: Ada the Cracker' })).not.toBeChecked();
  });
});

describe('user management: the edit dialog', () => {
  async function openEdit(name: string) {
    await userEvent.click(within(await findCard(name)).getByRole('button', { name: `Edit ${name}` }));
    return within(await screen.findByRole('dialog', { name: 'Edit User' }));
  }

  it('sends only what changed, trimmed, and closes with a toast', async () => {
    const { requests } = renderUsers(fakeServer([GRACE, ADA, OTHER_ADMIN, BOSS]));
    const dialog = await openEdit('Ada the Cracker');
    expect(dialog.getByRole('textbox', { name: 'Display Name' })).toHaveValue('Ada the Cracker');
    expect(dialog.getByRole('textbox', { name: 'Email' })).toHaveValue('ada@example.com');
    expect(dialog.getByRole('switch', { name: 'Account Enabled' })).toBeChecked();
    await userEvent.clear(dialog.getByRole('textbox', { name: 'Display Name' }));
    await userEvent.type(dialog.getByRole('textbox', { name: 'Display Name' }), '  Countess  ');
    await userEvent.click(dialog.getByRole('switch', { name: 'Administrator' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Success')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(requests.filter((r) => r.method === 'PATCH').map((r) => r.json)).toEqual([{ displayName: 'Countess', isAdmin: true }]);
    expect(await findCard('Countess')).toBeInTheDocument();
  });

  it.each([
    ['', 'Display name is required'],
    ['x'.repeat(51), 'Display name must be 50 characters or less'],
  ])('refuses the display name %j with the spec message, sending nothing', async (value, message) => {
    const { requests } = renderUsers();
    const dialog = await openEdit('Ada the Cracker');
    await userEvent.clear(dialog.getByRole('textbox', { name: 'Display Name' }));
    if (value) await userEvent.type(dialog.getByRole('textbox', { name: 'Display Name' }), value);
    await userEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));
    expect(await dialog.findByText(message)).toBeInTheDocument();
    expect(dialog.getByRole('textbox', { name: 'Display Name' })).toHaveAttribute('aria-invalid', 'true');
    expect(requests.some((r) => r.method === 'PATCH')).toBe(false);
  });

  it('refuses an invalid email with the spec message', async () => {
    const { requests } = renderUsers();
    const dialog = await openEdit('Ada the Cracker');
    await userEvent.clear(dialog.getByRole('textbox', { name: 'Email' }));
    await userEvent.type(dialog.getByRole('textbox', { name: 'Email' }), 'not-an-email');
    await userEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));
    expect(await dialog.findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'PATCH')).toBe(false);
  });

  it('lets an account without a display name be edited without giving it one', async () => {
    const { requests } = renderUsers({ 'PATCH /api/admin/users/grace': { body: { ...GRACE, isEnabled: true } } });
    const dialog = await openEdit('Grace Hopper');
    expect(dialog.getByRole('textbox', { name: 'Display Name' })).toHaveValue('');
    await userEvent.click(dialog.getByRole('switch', { name: 'Account Enabled' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Success')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'PATCH').map((r) => r.json)).toEqual([{ isEnabled: true }]);
  });

  it('shows a taken email on the field, toasts the failure and stays open', async () => {
    const taken = 'Another account already uses this email address';
    renderUsers({ 'PATCH /api/admin/users/ada': { status: 409, body: { message: taken } } });
    const dialog = await openEdit('Ada the Cracker');
    await userEvent.clear(dialog.getByRole('textbox', { name: 'Email' }));
    await userEvent.type(dialog.getByRole('textbox', { name: 'Email' }), 'boss@example.com');
    await userEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Failed to update user account')).toBeInTheDocument();
    expect(await dialog.findByText(taken, { selector: 'p[id$="-email-error"]' })).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Edit User' })).toBeInTheDocument();
  });

  it('locks the admin’s own flags', async () => {
    renderUsers();
    const dialog = await openEdit('Boss');
    expect(dialog.getByRole('switch', { name: 'Account Enabled' })).toBeDisabled();
    expect(dialog.getByRole('switch', { name: 'Administrator' })).toBeDisabled();
    expect(dialog.getByRole('textbox', { name: 'Display Name' })).toBeEnabled();
  });
});

describe('user management: deleting a user', () => {
  it('asks for confirmation, and Cancel deletes nothing', async () => {
    const { requests } = renderUsers();
    await userEvent.click(within(await findCard('Ada the Cracker')).getByRole('button', { name: 'Delete Ada the Cracker' }));
    const dialog = within(await screen.findByRole('alertdialog', { name: 'Delete this user account?' }));
    expect(dialog.getByText(/their photos and votes/)).toBeInTheDocument();
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false);
  });

  it('deletes on confirmation, takes the user off the list and refreshes it', async () => {
    const { requests } = renderUsers(fakeServer([GRACE, ADA, OTHER_ADMIN, BOSS]));
    await userEvent.click(within(await findCard('Ada the Cracker')).getByRole('button', { name: 'Delete Ada the Cracker' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete User' }));
    expect(await screen.findByText('Success')).toBeInTheDocument();
    expect(screen.getByText("Ada the Cracker's account has been deleted.")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Ada the Cracker' })).not.toBeInTheDocument());
    expect(count(requests, 'DELETE', '/api/admin/users/ada')).toBe(1);
    await waitFor(() => expect(count(requests, 'GET', LIST_URL)).toBe(2));
    expect(screen.getByText('3 users')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Users' })).toHaveFocus();
  });

  it('toasts Failed to delete user account with the reason and keeps the user', async () => {
    renderUsers({ 'DELETE /api/admin/users/ada': { status: 403, body: { message: 'Admin accounts cannot be deleted' } } });
    await userEvent.click(within(await findCard('Ada the Cracker')).getByRole('button', { name: 'Delete Ada the Cracker' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete User' }));
    expect(within(await findToast('Failed to delete user account')).getByText('Admin accounts cannot be deleted')).toBeInTheDocument();
    expect(screen.getByRole('listitem', { name: 'Ada the Cracker' })).toBeInTheDocument();
  });
});
