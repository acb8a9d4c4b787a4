import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import type { User } from '@snapcracks/proto/auth/v1';
import { UserDirectory } from './user-directory.js';

const ada = { id: 'ada', isAdmin: false, isEnabled: true, hasAcceptedTerms: true } as User;
const failure = (code: status): ServiceError => Object.assign(new Error(status[code]), { code, details: status[code], metadata: new Metadata() });

/** An auth service that answers Ada, or fails with `down` while it is set; counts its calls. */
function fakeAuth() {
  const auth = { calls: 0, down: undefined as status | undefined };
  const getUser = async () => {
    auth.calls++;
    if (auth.down !== undefined) throw failure(auth.down);
    return { user: ada };
  };
  return { auth, clients: { auth: { call: { getUser } } } as unknown as ConstructorParameters<typeof UserDirectory>[0] };
}

describe('UserDirectory', () => {
  it('reads an account once every few seconds', async () => {
    let now = 0;
    const { auth, clients } = fakeAuth();
    const users = new UserDirectory(clients, () => now);
    expect(await users.get('ada')).toEqual(ada);
    now += 4_000;
    await users.get('ada');
    expect(auth.calls).toBe(1);
    now += 2_000;
    await users.get('ada');
    expect(auth.calls).toBe(2);
  });

  it('serves an account read in the last ten minutes while auth cannot be reached, and nothing older', async () => {
    let now = 0;
    const { auth, clients } = fakeAuth();
    const users = new UserDirectory(clients, () => now);
    await users.get('ada');
    auth.down = status.UNAVAILABLE;
    now += 60_000;
    expect(await users.get('ada')).toEqual(ada);
    auth.down = status.DEADLINE_EXCEEDED;
    expect(await users.get('ada')).toEqual(ada);
    now += 10 * 60_000;
    await expect(users.get('ada')).rejects.toMatchObject({ code: status.DEADLINE_EXCEEDED });
  });

  it('never serves a stale account for an admin\'s change, nor when auth answers with a refusal', async () => {
    let now = 0;
    const { auth, clients } = fakeAuth();
    const users = new UserDirectory(clients, () => now);
    await users.get('ada');
    now += 6_000;
    auth.down = status.UNAVAILABLE;
    await expect(users.get('ada', { fresh: true })).rejects.toMatchObject({ code: status.UNAVAILABLE });
    auth.down = status.PERMISSION_DENIED;
    await expect(users.get('ada')).rejects.toMatchObject({ code: status.PERMISSION_DENIED });
  });
});
