import { readFileSync } from 'node:fs';
import type { TestBrowser } from '@snapcracks/dev-idp/testing';
import type { openTestPool } from '@snapcracks/kit/testing';
import { signIn } from '../sign-in.js';

type Pool = ReturnType<typeof openTestPool>;

const PHOTO_PNG = readFileSync(new URL('../../../storage/test/fixtures/photo.png', import.meta.url));

/** Who sends a generated request. */
export interface Caller {
  name: 'signed out' | 'owner' | 'other member' | 'admin';
  request(url: string, init: RequestInit): Promise<Response>;
}

interface Account {
  name: Exclude<Caller['name'], 'signed out'>;
  email: string;
  displayName: string;
  isAdmin: boolean;
  id: string;
  browser: TestBrowser;
}

/** The accounts ADMIN_EMAILS must list: the admin caller and the keeper, who repairs the world and is never a caller. */
export const ADMIN_EMAILS = 'admin@example.com,keeper@example.com';

/**
 * The people and things generated requests act on: a photo owner with a pending and an approved photo, another
 * member, an admin, someone signed out, and a contact form; plus a keeper admin, never a caller and never named in a
 * path, who puts things back after a request that succeeded changed them (an account disabled, demoted, promoted or
 * deleted; a photo deleted), so every run finds the same cast.
 */
export class World {
  readonly callers: Caller[];
  private knownIds: string[] = [];

  private constructor(
    private readonly baseUrl: string,
    private readonly pool: Pool,
    private readonly keeper: TestBrowser,
    private readonly accounts: Account[],
  ) {
    const signedOut: Caller = { name: 'signed out', request: (url, init) => fetch(url, { ...init, redirect: 'manual' }) };
    this.callers = [signedOut, ...accounts.map((account): Caller => ({ name: account.name, request: (url, init) => account.browser.request(url, init) }))];
  }

  static async create(baseUrl: string, pool: Pool): Promise<World> {
    const keeper = await member(baseUrl, 'keeper@example.com', 'Kee Per');
    const accounts = await Promise.all(
      (
        [
          ['owner', 'owner@example.com', 'Own Er', false],
          ['other member', 'other@example.com', 'Oth Er', false],
          ['admin', 'admin@example.com', 'Ad Min', true],
        ] as const
      ).map(async ([name, email, displayName, isAdmin]): Promise<Account> => {
        const browser = await member(baseUrl, email, displayName);
        return { name, email, displayName, isAdmin, browser, id: await userId(baseUrl, browser) };
      }),
    );
    const world = new World(baseUrl, pool, keeper, accounts);
    await world.repair();
    return world;
  }

  /**
   * Ids a path may name: every photo, every contact form, and the callers' own accounts. Read again after each
   * repair, since a photo or an account deleted by a request is replaced by a new one with a new id.
   */
  ids(): readonly string[] {
    return this.knownIds;
  }

  /** Puts the cast back as described above; cheap when nothing changed. */
  async repair(): Promise<void> {
    for (const account of this.accounts) await this.repairAccount(account);
    // Generated requests may set the upload allowances (an admin's 200 changes them); the cast's uploads need room.
    const allowance = await this.pool.query(`SELECT 1 FROM photo.upload_allowance_settings WHERE pending_limit >= 5 AND trusted_pending_limit >= 5`);
    if (allowance.rowCount === 0) await this.keeperSends('PUT', '/api/admin/upload-allowance', { pendingLimit: 5, trustedAfter: 10, trustedPendingLimit: 15 });
    const owner = this.account('owner');
    const photos = await this.pool.query<{ id: number; status: string }>(`SELECT id, status::text FROM photo.photos WHERE user_id = $1`, [owner.id]);
    if (!photos.rows.some((photo) => photo.status === 'pending')) await this.upload(owner);
    if (!photos.rows.some((photo) => photo.status === 'approved')) await this.keeperSends('PATCH', `/api/admin/photos/${await this.upload(owner)}/status`, { status: 'approved' });
    const forms = await this.pool.query(`SELECT 1 FROM support.contact_forms LIMIT 1`);
    if (forms.rowCount === 0) {
      await expectStatus(
        fetch(`${this.baseUrl}/api/contact`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Sam', email: 'sam@example.com', subject: 'A question', message: 'Hello there, a question.' }),
        }),
        201,
      );
    }
    const ids = await this.pool.query<{ id: string }>(`SELECT id::text FROM photo.photos UNION ALL SELECT id::text FROM support.contact_forms`);
    this.knownIds = [...ids.rows.map((row) => row.id), ...this.accounts.map((account) => account.id)];
  }

  private account(name: Account['name']): Account {
    return this.accounts.find((account) => account.name === name)!;
  }

  private async repairAccount(account: Account): Promise<void> {
    const { rows } = await this.pool.query<{ email: string | null; is_enabled: boolean; is_admin: boolean }>(`SELECT email, is_enabled, is_admin FROM auth.users WHERE id = $1`, [account.id]);
    const row = rows[0];
    if (row && (!row.is_enabled || row.is_admin !== account.isAdmin || row.email !== account.email)) {
      await this.keeperSends('PATCH', `/api/admin/users/${encodeURIComponent(account.id)}`, { isEnabled: true, isAdmin: account.isAdmin, email: account.email });
    }
    const me = await account.browser.request(`${this.baseUrl}/api/auth/user`, {});
    if (row && me.status === 200 && ((await me.json()) as { hasAcceptedTerms: boolean }).hasAcceptedTerms) return;
    // Deleted, or signed out: a new sign-in (a new account when it was deleted).
    account.browser = await member(this.baseUrl, account.email, account.displayName);
    account.id = await userId(this.baseUrl, account.browser);
    if (account.isAdmin !== (await isAdmin(this.baseUrl, account.browser))) {
      await this.keeperSends('PATCH', `/api/admin/users/${encodeURIComponent(account.id)}`, { isAdmin: account.isAdmin });
    }
  }

  private async upload(account: Account): Promise<number> {
    const form = new FormData();
    form.append('description', 'A crack');
    form.append('photo', new Blob([new Uint8Array(PHOTO_PNG)]), 'crack.png');
    const response = await expectStatus(account.browser.request(`${this.baseUrl}/api/photos`, { method: 'POST', body: form }), 201);
    return ((await response.json()) as { id: number }).id;
  }

  private keeperSends(method: string, path: string, body: unknown): Promise<Response> {
    return expectStatus(this.keeper.request(`${this.baseUrl}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }), 200);
  }
}

async function expectStatus(pending: Promise<Response>, status: number): Promise<Response> {
  const response = await pending;
  if (response.status !== status) throw new Error(`Setting up the world: expected ${status}, got ${response.status}: ${await response.text()}`);
  return response;
}

async function member(baseUrl: string, email: string, name: string): Promise<TestBrowser> {
  const { browser } = await signIn(baseUrl, email, name);
  const accepted = browser.request(`${baseUrl}/api/auth/accept-terms`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ hasAcceptedTerms: true }) });
  await expectStatus(accepted, 200);
  return browser;
}

async function me(baseUrl: string, browser: TestBrowser): Promise<{ id: string; isAdmin: boolean }> {
  const response = await expectStatus(browser.request(`${baseUrl}/api/auth/user`, {}), 200);
  return (await response.json()) as { id: string; isAdmin: boolean };
}
const userId = async (baseUrl: string, browser: TestBrowser) => (await me(baseUrl, browser)).id;
const isAdmin = async (baseUrl: string, browser: TestBrowser) => (await me(baseUrl, browser)).isAdmin;
