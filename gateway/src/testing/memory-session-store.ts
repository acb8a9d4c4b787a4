import type { SessionData, SessionStore } from '../session-store.js';

/** Sessions in memory, for route tests: only what the routes put in them matters there. */
export class MemorySessionStore implements SessionStore {
  readonly rows = new Map<string, SessionData>();
  recent(): undefined {
    return undefined;
  }
  get(sid: string): Promise<SessionData | null> {
    return Promise.resolve(this.rows.get(sid) ?? null);
  }
  set(sid: string, data: SessionData): Promise<void> {
    this.rows.set(sid, JSON.parse(JSON.stringify(data)) as SessionData);
    return Promise.resolve();
  }
  destroy(sid: string): Promise<void> {
    this.rows.delete(sid);
    return Promise.resolve();
  }
}
