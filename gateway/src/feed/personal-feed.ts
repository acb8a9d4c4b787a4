import { instruments, type Subscription } from '@snapcracks/kit';
import type { EventSource } from '../gateway-events.js';
import type { GalleryPhoto } from '@snapcracks/http-contract';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import { PhotoDeleted, PhotoStatusChanged, PhotoUpdated, PhotoUploaded, UserDeleted, UserUpdated, VoteCast, type PhotoState } from '@snapcracks/proto/events/v1';
import type { FeedEntry } from '@snapcracks/proto/photo/v1';
import type { Clients } from '../clients.js';
import { toGalleryPhotoJson } from '../photo-json.js';
import { FeedOrder, type FeedPhotoState } from './feed-order.js';
import { MemberRatings } from './member-ratings.js';

/** The events the feed is kept from: every photo's state, every photo's totals, uploaders' names, deleted accounts. */
export const FEED_EVENTS = ['photo.photo.uploaded', 'photo.photo.status_changed', 'photo.photo.updated', 'photo.photo.deleted', 'vote.vote.cast', 'auth.user.updated', 'auth.user.deleted'];

const PHOTO_EVENTS = {
  'photo.photo.uploaded': PhotoUploaded,
  'photo.photo.status_changed': PhotoStatusChanged,
  'photo.photo.updated': PhotoUpdated,
  'photo.photo.deleted': PhotoDeleted,
} as const;

const FROM_MEMORY = { component: 'gateway', source: 'memory' };
const FROM_PHOTO_SERVICE = { component: 'gateway', source: 'photo_service' };

export interface FeedPage {
  photos: GalleryPhoto[];
  total: number;
  totalPages: number;
}

export interface PersonalFeedOptions {
  clients: Pick<Clients, 'photo'>;
  /** Cards kept (least recently used forgotten first). */
  maxCards?: number;
  /** The whole order is loaded again this often, so that a missed event cannot leave it wrong for long. */
  reloadMs?: number;
  /** After an uploader's name changes, their cards are forgotten again this long after (the photo service's copy of the name lags the event). */
  settleMs?: number;
  /** Called when a load of the order fails (it is tried again). */
  onLoadError?: (error: unknown) => void;
}

/**
 * Need-your-vote answered from the gateway's memory: the order of every approved photo (FeedOrder), each member's rated
 * photos (MemberRatings) and the cards of the photos shown, all kept from the events every gateway replica hears, with
 * the photo service as the source they are loaded from. A page is then a walk of the order that leaves out the
 * member's own and rated photos: no call and no query once the member's set and the page's cards are kept. Until the
 * order is loaded, or when a page's card is not there to be had, `page` answers undefined and the caller asks the photo
 * service as before.
 */
export class PersonalFeed {
  private order = new FeedOrder();
  /** A reload under way: events go to it too, and it replaces `order` once whole. */
  private next: FeedOrder | undefined;
  private ready = false;
  private readonly ratings: MemberRatings;
  private readonly cards = new Map<number, GalleryPhoto>();
  /** Grows with every change a kept card may miss: cards loaded across one are answered but not kept. */
  private cardGeneration = 0;
  /** Each member's rated-and-listed count, with what it was counted from. */
  private readonly excluded = new Map<string, { listingVersion: number; rated: number; count: number }>();
  private subscription: Subscription | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;
  private readonly maxCards: number;
  private readonly reloadMs: number;
  private readonly settleMs: number;

  constructor(private readonly options: PersonalFeedOptions) {
    this.maxCards = options.maxCards ?? 20_000;
    this.reloadMs = options.reloadMs ?? 15 * 60_000;
    this.settleMs = options.settleMs ?? 300;
    this.ratings = new MemberRatings({
      load: async (userId) => (await options.clients.photo.call.listRatedPhotos({ userId }, { caller: null })).photoIds,
    });
  }

  /** Listens first, then loads: an event that lands during the load is applied to it, and versions sort out the rest. */
  async listen(bus: EventSource): Promise<void> {
    this.subscription = await bus.subscribe(async (event) => this.apply(event.type, event.payload), { types: FEED_EVENTS });
    this.reload();
  }

  get isReady(): boolean {
    return this.ready;
  }

  /** Page `page` of `userId`'s need-your-vote, or undefined when it cannot be answered from memory. */
  async page(userId: string, page: number, limit: number): Promise<FeedPage | undefined> {
    // A failed call for the member's ratings or the page's cards leaves the page to the photo service's query, which
    // answers it or says what is wrong.
    const answer = this.ready ? await this.fromMemory(userId, page, limit).catch(() => undefined) : undefined;
    instruments().personalFeedPages.add(1, answer ? FROM_MEMORY : FROM_PHOTO_SERVICE);
    return answer;
  }

  private async fromMemory(userId: string, page: number, limit: number): Promise<FeedPage | undefined> {
    const rated = await this.ratings.of(userId);
    const order = this.order;
    const ids = order.page((id, ownerId) => ownerId === userId || rated.has(id), (page - 1) * limit, limit);
    const cards = await this.cardsOf(ids);
    if (!cards) return undefined;
    const total = Math.max(0, order.approvedCount - order.approvedOf(userId) - this.ratedListed(userId, rated));
    return { photos: cards, total, totalPages: Math.ceil(total / limit) };
  }

  /** A vote this replica cast for `userId`: their next page leaves the photo out at once, before the event comes. */
  noteVote(userId: string, photoId: number): void {
    this.ratings.rated(userId, photoId);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    await this.subscription?.close();
  }

  private apply(type: string, payload: Uint8Array): void {
    const orders = this.next ? [this.order, this.next] : [this.order];
    if (type in PHOTO_EVENTS) {
      const { photo } = PHOTO_EVENTS[type as keyof typeof PHOTO_EVENTS].decode(payload);
      if (!photo) return;
      const state = stateOf(photo, type === 'photo.photo.deleted');
      for (const order of orders) order.applyState(photo.photoId, state);
      this.cardGeneration += 1;
      this.cards.delete(photo.photoId);
    } else if (type === 'vote.vote.cast') {
      const vote = VoteCast.decode(payload);
      if (vote.userId) this.ratings.rated(vote.userId, vote.photoId);
      if (vote.version === undefined || vote.voteCount === undefined || vote.ratingSum === undefined) return;
      for (const order of orders) order.applyTotals(vote.photoId, { count: vote.voteCount, sum: vote.ratingSum, version: vote.version });
    } else if (type === 'auth.user.updated' || type === 'auth.user.deleted') {
      const userId = type === 'auth.user.updated' ? UserUpdated.decode(payload).user?.id : UserDeleted.decode(payload).userId;
      if (!userId) return;
      if (type === 'auth.user.deleted') this.ratings.forget(userId);
      const theirs = (_id: number, card: GalleryPhoto) => card.userId === userId;
      this.forgetCards(theirs);
      this.later(() => this.forgetCards(theirs), this.settleMs);
    }
  }

  /** Loads the whole order from the photo service beside the one in use, then uses it; tried again until it works. */
  private reload(): void {
    if (this.closed) return;
    const next = new FeedOrder();
    this.next = next;
    void this.load(next).then(
      () => {
        if (this.next !== next) return;
        this.order = next;
        this.next = undefined;
        // Counted against the order replaced, whose listing versions mean nothing in this one.
        this.excluded.clear();
        this.ready = true;
        this.later(() => this.reload(), this.reloadMs);
      },
      (error: unknown) => {
        if (this.next === next) this.next = undefined;
        this.options.onLoadError?.(error);
        this.later(() => this.reload(), 5_000);
      },
    );
  }

  private async load(order: FeedOrder): Promise<void> {
    for await (const { entries } of this.options.clients.photo.serverStream('streamFeedEntries', {}, { caller: null, deadlineMs: 120_000 })) {
      for (const entry of entries) applyEntry(order, entry);
    }
  }

  /** The cards of `ids` in their order, their totals as the order knows them; undefined if one is not to be had. */
  private async cardsOf(ids: number[]): Promise<GalleryPhoto[] | undefined> {
    const missing = ids.filter((id) => !this.cards.has(id));
    if (missing.length > 0) {
      const generation = this.cardGeneration;
      const { photos } = await this.options.clients.photo.call.getGalleryCards({ ids: missing }, { caller: null });
      const loaded = new Map(photos.map((photo) => [photo.id, toGalleryPhotoJson(photo)]));
      if (loaded.size < missing.length) return undefined; // the order and the photo service disagree for a moment
      if (generation === this.cardGeneration) for (const [id, card] of loaded) this.keepCard(id, card);
      return ids.map((id) => this.withTotals(this.cards.get(id) ?? loaded.get(id)!));
    }
    return ids.map((id) => {
      const card = this.cards.get(id)!;
      // Used now: the last to be forgotten.
      this.cards.delete(id);
      this.cards.set(id, card);
      return this.withTotals(card);
    });
  }

  private keepCard(id: number, card: GalleryPhoto): void {
    this.cards.set(id, card);
    if (this.cards.size > this.maxCards) this.cards.delete(this.cards.keys().next().value!);
  }

  private withTotals(card: GalleryPhoto): GalleryPhoto {
    const { count, sum, version } = this.order.totalsOf(card.id);
    if (version === 0) return card;
    return { ...card, voteCount: count, averageRating: count > 0 ? sum / count : 0 };
  }

  private forgetCards(which: (id: number, card: GalleryPhoto) => boolean): void {
    this.cardGeneration += 1;
    for (const [id, card] of this.cards) if (which(id, card)) this.cards.delete(id);
  }

  /** How many of the member's rated photos are listed and not their own, counted again only when either changed. */
  private ratedListed(userId: string, rated: ReadonlySet<number>): number {
    const order = this.order;
    const known = this.excluded.get(userId);
    if (known && known.listingVersion === order.listingVersion && known.rated === rated.size) return known.count;
    let count = 0;
    for (const id of rated) if (order.isApproved(id) && order.ownerOf(id) !== userId) count += 1;
    this.excluded.delete(userId);
    this.excluded.set(userId, { listingVersion: order.listingVersion, rated: rated.size, count });
    if (this.excluded.size > 20_000) this.excluded.delete(this.excluded.keys().next().value!);
    return count;
  }

  private later(run: () => void, ms: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }
}

/** A photo's state for the order, from an event's PhotoState or a loaded FeedEntry (the same fields). */
function stateOf(photo: Pick<PhotoState, 'userId' | 'status' | 'approvedAt' | 'version'>, deleted = false): FeedPhotoState {
  const approved = photo.status === PhotoStatus.PHOTO_STATUS_APPROVED && photo.approvedAt !== undefined;
  return { ownerId: photo.userId, approvedAtMs: approved ? photo.approvedAt!.getTime() : null, version: photo.version, deleted };
}

function applyEntry(order: FeedOrder, entry: FeedEntry): void {
  order.applyState(entry.photoId, stateOf(entry));
  if (entry.ratingVersion > 0) order.applyTotals(entry.photoId, { count: entry.voteCount, sum: entry.ratingSum, version: entry.ratingVersion });
}
