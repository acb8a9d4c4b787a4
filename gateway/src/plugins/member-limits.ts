import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler, onSendAsyncHookHandler } from 'fastify';
import { instruments } from '@snapcracks/kit';
import type { RateLimit } from '../config.js';
import { HttpError } from '../http-errors.js';

/** The actions a member is limited in, each with its own RATE_LIMIT_* setting. */
export type MemberLimitName = 'uploads' | 'votes' | 'avatars' | 'faceSuggestions' | 'reports';

/**
 * What a refused member reads. The web app shows the upload's and the face check's as the failure toast's text
 * (spec §8: "Upload Failed with the server text"); a vote and an avatar get the spec's own failure toasts.
 */
export const MEMBER_LIMIT_MESSAGES: Record<MemberLimitName, string> = {
  uploads: 'You are uploading photos faster than allowed. Please wait a minute and try again.',
  votes: 'You are voting faster than allowed. Please wait a moment and try again.',
  avatars: 'You are changing your avatar too often. Please wait a minute and try again.',
  faceSuggestions: 'Too many face checks in a short time. Please wait a moment and try again, or draw the bars yourself.',
  reports: 'You have sent many reports in a short time. Please wait a while before reporting another photo.',
};
export const UPLOADS_IN_FLIGHT_MESSAGE = 'Your other uploads are still being processed. Please wait for them to finish and try again.';
/** A refused upload's Retry-After while the member's others are in flight: about one large photo's processing. */
export const IN_FLIGHT_RETRY_AFTER_SECONDS = 5;

/**
 * A limited route's 503 (storage's image queue full, a service down) says when to come back: about a large photo's
 * processing time. The message stays the gateway's own (ERRORS.unavailable).
 */
export const BUSY_RETRY_AFTER_SECONDS = 10;

/** The name each limit has in snapcracks.rate_limit.refusals, as security.ts names the others. */
const METRIC_NAMES: Record<MemberLimitName, string> = { uploads: 'uploads', votes: 'votes', avatars: 'avatars', faceSuggestions: 'face-suggestions', reports: 'reports' };

/**
 * A route's per-member limits, as route options to spread into its definition: `{ onRequest: [hook] }`.
 *
 * Counted by the signed-in member's id, never by address (members behind one office or school address each have
 * their own), in the store of the API-wide limiter (security.ts): Redis when REDIS_URL is set, so every replica
 * counts together, else this replica's memory. Uploads are also limited in how many one member has in flight at
 * once; that count is each replica's own (an upload is a long request that a shared count would have to release
 * reliably even when the replica dies). A refusal is a 429 with Retry-After and a message saying what to do.
 * A 503 from such a route (the image queue full) carries Retry-After too. Runs on request, before the body is read: a refused upload costs nothing but its discarded bytes. Signed-out
 * callers and members before the terms get the route's own 401/403 instead.
 */
export function memberLimit(app: FastifyInstance, name: MemberLimitName): { onRequest: onRequestAsyncHookHandler[]; onSend: onSendAsyncHookHandler[] } {
  // Routes tested on their own, without the security plugin, have no limiter.
  if (!app.hasDecorator('rateLimits') || !app.hasDecorator('createRateLimit')) return { onRequest: [], onSend: [retryAfterOnBusy] };
  const limit: RateLimit = app.rateLimits[name];
  const members = new WeakMap<FastifyRequest, string>();
  const count = app.createRateLimit({
    max: limit.max,
    timeWindow: limit.windowMs,
    keyGenerator: (request: FastifyRequest) => `member-${METRIC_NAMES[name]}:${members.get(request) ?? request.ip}`,
  });
  const inFlight = name === 'uploads' ? new InFlight(app.rateLimits.uploadsInFlight) : undefined;

  const hook: onRequestAsyncHookHandler = async (request, reply) => {
    const { userId } = await request.requireMember();
    members.set(request, userId);
    if (inFlight && !inFlight.enter(userId, reply)) {
      refuse(reply, name, IN_FLIGHT_RETRY_AFTER_SECONDS, UPLOADS_IN_FLIGHT_MESSAGE);
    }
    const counted = await count(request);
    if (!counted.isAllowed && counted.isExceeded) {
      refuse(reply, name, Math.max(1, counted.ttlInSeconds), MEMBER_LIMIT_MESSAGES[name]);
    }
  };
  return { onRequest: [hook], onSend: [retryAfterOnBusy] };
}

const retryAfterOnBusy: onSendAsyncHookHandler = async (_request, reply, payload) => {
  if (reply.statusCode === 503 && !reply.hasHeader('retry-after')) reply.header('retry-after', String(BUSY_RETRY_AFTER_SECONDS));
  return payload;
};

function refuse(reply: FastifyReply, name: MemberLimitName, retryAfterSeconds: number, message: string): never {
  instruments().rateLimitRefusals.add(1, { component: 'gateway', limit: METRIC_NAMES[name] });
  reply.header('retry-after', String(retryAfterSeconds));
  throw new HttpError(429, message);
}

/** How many requests each member has in progress on this replica; one leaves when its answer is done or dropped. */
class InFlight {
  private readonly counts = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** Counts the request in, to leave once its response closes; false (nothing counted) when the member is at the max. */
  enter(member: string, reply: FastifyReply): boolean {
    const current = this.counts.get(member) ?? 0;
    if (current >= this.max) return false;
    this.counts.set(member, current + 1);
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      const now = (this.counts.get(member) ?? 1) - 1;
      if (now > 0) this.counts.set(member, now);
      else this.counts.delete(member);
    };
    reply.raw.once('close', leave);
    reply.raw.once('finish', leave);
    return true;
  }
}
