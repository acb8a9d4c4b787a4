import { afterEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ERRORS, GALLERY, REVIEW, routes, type RouteDefinition } from '@snapcracks/http-contract';
import { PhotoStatus, StorageType } from '@snapcracks/proto/common/v1';
import { ContactFormStatus } from '@snapcracks/proto/support/v1';
import type { Photo } from '@snapcracks/proto/photo/v1';
import { ADMIN, MEMBER, gatewayHarness, type Account, type FakeServices, type GatewayHarness } from '../testing/gateway-harness.js';

const NOW = new Date('2026-11-28T10:00:00.000Z');
const photo = (overrides: Partial<Photo> = {}): Photo => ({
  id: 7,
  userId: 'owner-1',
  filename: `${'a'.repeat(32)}.webp`,
  originalName: 'crack.jpg',
  mimeType: 'image/jpeg',
  size: 1234,
  description: 'A crack',
  status: PhotoStatus.PHOTO_STATUS_APPROVED,
  privacyBars: [{ x: 1, y: 2, width: 3, height: 4 }],
  storageType: StorageType.STORAGE_TYPE_LOCAL,
  createdAt: NOW,
  updatedAt: NOW,
  approvedAt: NOW,
  averageRating: 4.5,
  voteCount: 2,
  imageVersion: 3,
  width: 800,
  height: 600,
  user: { id: 'owner-1', displayName: 'Ada' },
  ...overrides,
});
const user = { id: MEMBER.id, email: 'ada@example.com', isAdmin: false, isEnabled: true, hasAcceptedTerms: true, createdAt: NOW, updatedAt: NOW };
const contactForm = { id: 3, name: 'Ada', email: 'ada@example.com', subject: 'Hi', message: 'Hello', status: ContactFormStatus.CONTACT_FORM_STATUS_NEW, createdAt: NOW, updatedAt: NOW };

let harness: GatewayHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

interface Scenario {
  as: Account | null;
  method?: string;
  url: string;
  body?: unknown;
  services: FakeServices;
}

/**
 * Calls one route through the whole gateway and checks what every JSON route promises: the contract's success status,
 * a body its schema accepts unchanged, and exactly one call to a service.
 */
async function callRoute(route: RouteDefinition, scenario: Scenario) {
  harness = await gatewayHarness({ services: scenario.services });
  const cookie = scenario.as ? await harness.signIn(scenario.as) : undefined;
  harness.calls.length = 0;
  const response = await harness.inject({ method: scenario.method ?? route.method, url: scenario.url, ...(scenario.body !== undefined ? { payload: scenario.body as object } : {}), ...(cookie ? { cookie } : {}) });
  const calls = harness.calls.filter((call) => !(call.service === 'auth' && call.method === 'getUser'));
  return { response, calls };
}

function expectAnswer(route: RouteDefinition & { ok: { json: z.ZodType } }, response: { statusCode: number; body: string }) {
  expect(response.statusCode, response.body).toBe(route.ok.status);
  const body = JSON.parse(response.body) as unknown;
  // The schema's own reading of the body is the body: nothing missing, nothing extra, every field of its type.
  expect(JSON.parse(JSON.stringify(route.ok.json.parse(body)))).toEqual(body);
  return body;
}

describe('each JSON route answers what the contract says, with one service call', () => {
  const cases: Array<[string, RouteDefinition & { ok: { json: z.ZodType } }, Scenario]> = [
    ['acceptTerms', routes.acceptTerms, { as: { id: 'new', hasAcceptedTerms: false }, url: '/api/auth/accept-terms', body: { hasAcceptedTerms: true }, services: { auth: { acceptTerms: () => ({ user: { ...user, id: 'new' } }) } } }],
    ['photoPreviews', routes.photoPreviews, { as: null, url: '/api/photos?limit=4', services: { photo: { listPublicPhotos: () => ({ photos: [photo()] }) } } }],
    ['galleryPage', routes.galleryPage, { as: null, url: '/api/gallery/top-rated?page=1&limit=9', services: { photo: { getGalleryPage: () => ({ photos: [photo()], total: 1, totalPages: 1 }) } } }],
    ['galleryPage (need-your-vote)', routes.galleryPage, { as: MEMBER, url: '/api/gallery/need-your-vote', services: { photo: { getGalleryPage: () => ({ photos: [], total: 0, totalPages: 0 }) } } }],
    ['galleryStats', routes.galleryStats, { as: null, url: '/api/stats/gallery', services: { stats: { getGalleryStats: () => ({ photoCount: 1, totalVotes: 2, ratedFourOrHigher: 1, distinctUploaders: 1 }) } } }],
    ['myVote', routes.myVote, { as: MEMBER, url: '/api/photos/7/vote', services: { vote: { getMyVote: () => ({}) } } }],
    ['castVote', routes.castVote, { as: MEMBER, url: '/api/photos/7/vote', body: { rating: 4 }, services: { vote: { castVotes: ({ votes }: { votes: unknown[] }) => ({ outcomes: votes.map(() => ({ outcome: { $case: 'cast', value: { rating: 4, averageRating: 4, voteCount: 1 } } })) }) } } }],
    ['myPhotos', routes.myPhotos, { as: MEMBER, url: '/api/user/photos', services: { photo: { listMyPhotos: () => ({ photos: [photo({ status: PhotoStatus.PHOTO_STATUS_REJECTED, rejectionReason: 'Blurry' })] }) } } }],
    ['editDescription', routes.editDescription, { as: MEMBER, url: '/api/photos/7', body: { description: ' New ' }, services: { photo: { updatePhoto: () => ({ photo: photo({ description: 'New' }) }) } } }],
    ['getPrivacyBars', routes.getPrivacyBars, { as: MEMBER, url: '/api/photos/7/privacy-bars', services: { photo: { getPrivacyBars: () => ({ bars: [{ x: 1, y: 1, width: 5, height: 5 }] }) } } }],
    ['setPrivacyBars', routes.setPrivacyBars, { as: MEMBER, url: '/api/photos/7/privacy-bars', body: { bars: [{ x: 1, y: 1, width: 5, height: 5 }] }, services: { photo: { setPrivacyBars: ({ bars }: { bars: unknown }) => ({ bars }) } } }],
    ['userStats', routes.userStats, { as: MEMBER, url: '/api/user/stats', services: { stats: { getUserStats: () => ({ totalUploads: 2, approvedUploads: 1, pendingUploads: 1, rejectedUploads: 0, uploadsThisWeek: 2, averageRating: 4, recentAverageRating: 4, recentVoteCount: 2, totalVotes: 2, rankByUploads: 1, totalActiveUsers: 3, highestRatedPhoto: { id: 7, filename: 'a.webp', averageRating: 4, voteCount: 2 }, ratingDistribution: [0, 0, 0, 2, 0] }) } } }],
    ['updateProfile', routes.updateProfile, { as: MEMBER, url: '/api/profile', body: { displayName: 'Ada' }, services: { auth: { updateProfile: () => ({ user: { ...user, displayName: 'Ada' } }) } } }],
    ['adminStats', routes.adminStats, { as: ADMIN, url: '/api/admin/stats', services: { stats: { getAdminStats: () => ({ pendingReviews: 1, approvedToday: 2, rejectedToday: 0, totalPhotos: 5 }) } } }],
    ['reviewList', routes.reviewList, { as: ADMIN, url: '/api/admin/photos/pending?page=1&limit=20', services: { moderation: { listPhotos: () => ({ photos: [photo({ status: PhotoStatus.PHOTO_STATUS_PENDING, reviewMarks: { duplicateOf: { photoId: 2, status: PhotoStatus.PHOTO_STATUS_APPROVED } } })], actions: [{ id: 'a1', photoId: 7, action: 'approve', actorId: 'admin-1', createdAt: NOW }], total: 1, totalPages: 1 }) } } }],
    ['reviewPhoto', routes.reviewPhoto, { as: ADMIN, url: '/api/admin/photos/7/status', body: { status: 'rejected', rejectionReason: 'Blurry' }, services: { moderation: { reviewPhoto: () => ({ photo: photo({ status: PhotoStatus.PHOTO_STATUS_REJECTED, rejectionReason: 'Blurry' }) }) } } }],
    ['cleanup', routes.cleanup, { as: ADMIN, url: '/api/admin/cleanup/orphaned', services: { moderation: { cleanup: () => ({ message: 'Removed 2 files', removed: 2, failed: 0 }) } } }],
    ['adminUsers', routes.adminUsers, { as: ADMIN, url: '/api/admin/users?q=ada', services: { auth: { listUsers: () => ({ users: [user], total: 1, totalPages: 1 }) } } }],
    ['updateUser', routes.updateUser, { as: ADMIN, url: '/api/admin/users/member-1', body: { isEnabled: false }, services: { auth: { updateUser: () => ({ user: { ...user, isEnabled: false } }) } } }],
    ['contactForms', routes.contactForms, { as: ADMIN, url: '/api/admin/contact-forms?status=new', services: { support: { listContactForms: () => ({ contactForms: [contactForm], counts: { newCount: 1, inProgressCount: 0, resolvedCount: 0, totalCount: 1 }, total: 1, totalPages: 1 }) } } }],
    ['setContactFormStatus', routes.setContactFormStatus, { as: ADMIN, url: '/api/admin/contact-forms/3/status', body: { status: 'resolved' }, services: { support: { setContactFormStatus: () => ({ contactForm: { ...contactForm, status: ContactFormStatus.CONTACT_FORM_STATUS_RESOLVED } }) } } }],
    ['contact', routes.contact, { as: null, url: '/api/contact', body: { name: 'Ada', email: 'ada@example.com', subject: 'Hi', message: 'Hello' }, services: { support: { submitContactForm: () => ({ contactForm }) } } }],
    ['driveAuthUrl', routes.driveAuthUrl, { as: ADMIN, url: '/api/google-drive/auth-url', services: { storage: { getDriveAuthUrl: () => ({ authUrl: 'https://accounts.example/auth?client_id=x' }) } } }],
    ['driveExchangeToken', routes.driveExchangeToken, { as: ADMIN, url: '/api/google-drive/exchange-token', body: { code: 'c' }, services: { storage: { exchangeDriveCode: () => ({ refreshToken: 'r' }) } } }],
  ];

  it.each(cases)('%s', async (_name, route, scenario) => {
    const { response, calls } = await callRoute(route, scenario);
    expectAnswer(route, response);
    expect(calls.map((call) => `${call.service}.${call.method}`)).toHaveLength(1);
  });
});

describe('what the routes send on', () => {
  it('answers the signed-in user from the account the gateway already read', async () => {
    const { response, calls } = await callRoute(routes.currentUser, { as: { ...MEMBER, displayName: 'Ada' }, url: '/api/auth/user', services: {} });
    expect(expectAnswer(routes.currentUser, response)).toMatchObject({ id: MEMBER.id, displayName: 'Ada', hasAcceptedTerms: true, email: null });
    expect(calls).toEqual([]);
  });

  it('trims a description and sends the photo id from the path', async () => {
    const { calls } = await callRoute(routes.editDescription, { as: MEMBER, url: '/api/photos/7', body: { description: '  Fixed  ' }, services: { photo: { updatePhoto: () => ({ photo: photo() }) } } });
    expect(calls[0]?.request).toEqual({ id: 7, description: 'Fixed' });
    expect(calls[0]?.caller).toEqual({ userId: MEMBER.id, isAdmin: false, hasAcceptedTerms: true });
  });

  it('asks the gallery for the filter and page in the query, public pages without a caller', async () => {
    const { calls } = await callRoute(routes.galleryPage, { as: MEMBER, url: '/api/gallery/new-this-week?page=3&limit=9', services: { photo: { getGalleryPage: () => ({ photos: [], total: 0, totalPages: 0 }) } } });
    expect(calls[0]).toMatchObject({ request: { page: { page: 3, limit: GALLERY.pageSize } }, caller: null });
  });

  it('deletes with 204 and no body', async () => {
    const { response, calls } = await callRoute(routes.deletePhoto, { as: MEMBER, url: '/api/photos/7', services: { photo: { deletePhoto: () => ({}) } } });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(calls.map((call) => call.method)).toEqual(['deletePhoto']);
  });
});

describe('bad input is a 400 naming the problem, and costs no call', () => {
  it.each([
    ['a rating of 6', routes.castVote, '/api/photos/7/vote', { rating: 6 }, 'Rating must be a whole number from 1 to 5'],
    ['a photo id that is not a whole number', routes.myVote, '/api/photos/1.5/vote', undefined, ERRORS.invalidPhotoId],
    ['a blank description', routes.editDescription, '/api/photos/7', { description: '  ' }, 'Description is required'],
    ['a page past the last one', routes.reviewList, '/api/admin/photos/pending?page=100001', undefined, 'page must be a whole number from 1 to 100000'],
    ['a status that is not one', routes.reviewPhoto, '/api/admin/photos/7/status', { status: 'maybe' }, REVIEW.statusInvalid],
    ['too many privacy bars', routes.setPrivacyBars, '/api/photos/7/privacy-bars', { bars: Array.from({ length: 21 }, () => ({ x: 1, y: 1, width: 1, height: 1 })) }, 'At most 20 privacy bars per photo'],
  ] as const)('%s', async (_name, route, url, body, message) => {
    const { response, calls } = await callRoute(route, { as: ADMIN, url, body, services: {} });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message });
    expect(calls).toEqual([]);
  });

  it('an unknown gallery filter is a 404', async () => {
    const { response } = await callRoute(routes.galleryPage, { as: null, url: '/api/gallery/best', services: {} });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: GALLERY.unknownFilter });
  });
});
