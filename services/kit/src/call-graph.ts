import type { ServiceName } from './component.js';

/**
 * Which services each service calls: the one statement of the call graph. Services start after their peers in one
 * process, connect only to these, and a user assertion the gateway makes for a service may be presented to it and to
 * every service it reaches through this graph (and to no other).
 */
export const SERVICE_PEERS = {
  auth: ['storage'],
  photo: ['storage'],
  vote: [],
  moderation: ['photo', 'storage', 'auth'],
  stats: ['photo', 'vote', 'auth'],
  support: [],
  storage: [],
} as const satisfies Record<ServiceName, readonly ServiceName[]>;

/** `target` and every service it reaches through SERVICE_PEERS: who a user assertion made for a call to `target` may be shown to. */
export function reachableFrom(target: string): string[] {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const peer of (SERVICE_PEERS as Record<string, readonly string[]>)[name] ?? []) visit(peer);
  };
  visit(target);
  return [...seen];
}
