import type { User } from '@snapcracks/proto/auth/v1';
import { status } from '@grpc/grpc-js';
import { decodeEvent, isServiceError, type Subscription } from '@snapcracks/kit';
import type { EventSource } from './gateway-events.js';
import { UserDeleted, UserUpdated } from '@snapcracks/proto/events/v1';
import type { Clients } from './clients.js';

const TTL_MS = 5_000;
/**
 * While the auth service cannot be reached, an account read this recently still serves: members already signed in keep
 * browsing, voting and uploading through an auth outage (nobody can disable or demote them meanwhile: those changes go
 * through auth). An admin's change always reads afresh and fails instead.
 */
const STALE_WHILE_AUTH_DOWN_MS = 10 * 60_000;
const MAX_ENTRIES = 10_000;
/** How a call fails when the auth service is not there (stopped, restarting, overloaded), as opposed to answering no. */
const AUTH_UNREACHABLE = new Set<number>([status.UNAVAILABLE, status.DEADLINE_EXCEEDED]);

/** The events after which an account kept here may read differently. */
export const USER_EVENTS = ['auth.user.updated', 'auth.user.deleted'];

/**
 * The signed-in user behind each request, cached for a few seconds so hot paths make no extra gRPC call.
 * Every gateway replica drops an entry as soon as `auth.user.updated`/`deleted` arrives (broadcast), so a
 * disabled account or a changed admin flag takes effect at once; the TTL bounds staleness if an event is late.
 * When an entry expires, the requests that need it meanwhile wait for one read: a member's burst of requests (a
 * page's calls, votes from several tabs) would otherwise each ask auth at once, every few seconds.
 */
export class UserDirectory {
  private readonly cache = new Map<string, { user: User | null; at: number }>();
  /** The read under way for each account, which requests that find its entry expired share. */
  private readonly reading = new Map<string, Promise<User | null>>();
  private subscription: Subscription | undefined;

  constructor(
    private readonly clients: Pick<Clients, 'auth'>,
    private readonly now: () => number = Date.now,
  ) {}

  async listen(bus: EventSource): Promise<void> {
    this.subscription = await bus.subscribe(
      async (event) => {
        const userId = event.type === 'auth.user.deleted' ? decodeEvent(event, UserDeleted).userId : decodeEvent(event, UserUpdated).user?.id;
        if (userId) this.forget(userId);
      },
      { types: USER_EVENTS },
    );
  }

  /** The account, from the cache unless `fresh` asks for it as the auth service holds it now (an admin's change). */
  async get(userId: string, { fresh = false }: { fresh?: boolean } = {}): Promise<User | null> {
    const hit = this.cache.get(userId);
    if (!fresh && hit && this.now() - hit.at < TTL_MS) return hit.user;
    try {
      return await (fresh ? this.read(userId) : this.sharedRead(userId));
    } catch (error) {
      const unreachable = isServiceError(error) && AUTH_UNREACHABLE.has(error.code);
      if (unreachable && !fresh && hit && this.now() - hit.at < STALE_WHILE_AUTH_DOWN_MS) return hit.user;
      throw error;
    }
  }

  remember(userId: string, user: User | null): void {
    if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
    this.cache.set(userId, { user, at: this.now() });
  }

  async close(): Promise<void> {
    await this.subscription?.close();
  }

  private sharedRead(userId: string): Promise<User | null> {
    const inFlight = this.reading.get(userId);
    if (inFlight) return inFlight;
    const pending: Promise<User | null> = this.fetch(userId)
      .then((user) => {
        // Not when the account changed while it was being read (forget() dropped this read): the next request reads again.
        if (this.reading.get(userId) === pending) this.remember(userId, user);
        return user;
      })
      .finally(() => {
        if (this.reading.get(userId) === pending) this.reading.delete(userId);
      });
    this.reading.set(userId, pending);
    return pending;
  }

  private async read(userId: string): Promise<User | null> {
    const user = await this.fetch(userId);
    this.remember(userId, user);
    return user;
  }

  /** The account as auth holds it; null when there is none. */
  private async fetch(userId: string): Promise<User | null> {
    try {
      const { user = null } = await this.clients.auth.call.getUser({ id: userId }, { caller: null });
      return user;
    } catch (error) {
      if (isServiceError(error) && error.code === status.NOT_FOUND) return null;
      throw error;
    }
  }

  private forget(userId: string): void {
    this.cache.delete(userId);
    this.reading.delete(userId);
  }
}
