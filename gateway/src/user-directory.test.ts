import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { makeEvent, type EventHandler } from '@snapcracks/kit';
import type { User } from '@snapcracks/proto/auth/v1';
import { UserUpdated } from '@snapcracks/proto/events/v1';
import { UserDirectory } from './user-directory.js';

const ada = { id: 'ada', isAdmin: false, isEnabled: true, hasAcceptedTerms: true } as User;
const failure = (code: status): ServiceError => Object.assign(new Error(status[code]), { code, details: status[code], metadata: new Metadata() });

/**
 * An auth service that answers Ada, or fails with `down` while it is set; counts its calls. While `held` is set, its
 * answers wait until `release()`.
 */
function fakeAuth() {
  const auth = { calls: 0, down: undefined as status | undefined, held: false, release: () => {} };
  let opened = Promise.resolve();
  const getUser = async () => {
    auth.calls++;
    if (auth.held) {
      opened = new Promise((resolve) => (auth.release = resolve));
      auth.held = false;
    }
    await opened;
    if (auth.down !== undefined) throw failure(auth.down);
    return { user: ada };
  };
  return { auth, clients: { auth: { call: { getUser } } } as unknown as ConstructorParameters<typeof UserDirectory>[0] };
}

/** A directory on a fake auth and a clock that starts at 0 and moves with `advance`. */
function directory() {
  let now = 0;
  const { auth, clients } = fakeAuth();
  return { auth, users: new UserDirectory(clients, () => now), advance: (ms: number) => void (now += ms) };
}

describe('UserDirectory', () => {
  it('reads an account once every few seconds', async () => {
    const { auth, users, advance } = directory();
    expect(await users.get('ada')).toEqual(ada);
    advance(4_000);
    await users.get('ada');
    expect(auth.calls).toBe(1);
    advance(2_000);
    await users.get('ada');
    expect(auth.calls).toBe(2);
  });

  it('serves an account read in the last ten minutes while auth cannot be reached, and nothing older', async () => {
    const { auth, users, advance } = directory();
    await users.get('ada');
    auth.down = status.UNAVAILABLE;
    advance(60_000);
    expect(await users.get('ada')).toEqual(ada);
    auth.down = status.DEADLINE_EXCEEDED;
    expect(await users.get('ada')).toEqual(ada);
    advance(10 * 60_000);
    await expect(users.get('ada')).rejects.toMatchObject({ code: status.DEADLINE_EXCEEDED });
  });

  it('never serves a stale account for an admin\'s change, nor when auth answers with a refusal', async () => {
    const { auth, users, advance } = directory();
    await users.get('ada');
    advance(6_000);
    auth.down = status.UNAVAILABLE;
    await expect(users.get('ada', { fresh: true })).rejects.toMatchObject({ code: status.UNAVAILABLE });
    auth.down = status.PERMISSION_DENIED;
    await expect(users.get('ada')).rejects.toMatchObject({ code: status.PERMISSION_DENIED });
  });

  it('reads an expired account once for the requests that need it meanwhile', async () => {
    const { auth, users, advance } = directory();
    await users.get('ada');
    advance(6_000);
    auth.held = true;
    const burst = Array.from({ length: 5 }, () => users.get('ada'));
    auth.release();
    expect(await Promise.all(burst)).toEqual(Array(5).fill(ada));
    expect(auth.calls).toBe(2);
    await users.get('ada');
    expect(auth.calls).toBe(2);
  });

  it('shares a failed read too, each request still served the account it had while auth is down', async () => {
    const { auth, users, advance } = directory();
    await users.get('ada');
    advance(6_000);
    auth.down = status.UNAVAILABLE;
    auth.held = true;
    const burst = [users.get('ada'), users.get('ada'), users.get('ada', { fresh: true })];
    auth.release();
    const [first, second, fresh] = await Promise.allSettled(burst);
    expect([first, second]).toEqual([
      { status: 'fulfilled', value: ada },
      { status: 'fulfilled', value: ada },
    ]);
    expect(fresh).toMatchObject({ status: 'rejected', reason: { code: status.UNAVAILABLE } });
    // One read shared by the two, one of its own for the admin's change.
    expect(auth.calls).toBe(3);
  });

  it('keeps no account read before it changed, even one whose answer comes last', async () => {
    let deliver: EventHandler = async () => {};
    const answers: ((user: User) => void)[] = [];
    const getUser = () => new Promise<{ user: User }>((resolve) => answers.push((user) => resolve({ user })));
    const users = new UserDirectory({ auth: { call: { getUser } } } as unknown as ConstructorParameters<typeof UserDirectory>[0]);
    await users.listen({ subscribe: async (handler) => ((deliver = handler), { close: async () => {} }) });
    const before = users.get('ada');
    await deliver(makeEvent('auth.user.updated', UserUpdated, { user: { id: 'ada', displayName: 'Ada' }, isAdmin: true, isEnabled: true, hasAcceptedTerms: true }, { source: 'auth' }));
    const after = users.get('ada');
    expect(answers).toHaveLength(2);
    const admin = { ...ada, isAdmin: true };
    answers[1]!(admin);
    answers[0]!(ada);
    expect(await before).toEqual(ada);
    expect(await after).toEqual(admin);
    expect(await users.get('ada')).toEqual(admin);
    expect(answers).toHaveLength(2);
  });
});
