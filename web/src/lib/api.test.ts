import { describe, expect, it } from 'vitest';
import { mockFetch } from '@/test/fetch-mock';
import { ApiError, api, getServerMessage, isUnauthorizedError } from './api';

describe('API client', () => {
  it('sends credentials and no body or content type when none is given', async () => {
    const requests = mockFetch({ 'GET /api/photos': { body: [] } });
    await api.photos.list();
    expect(requests[0]?.init?.credentials).toBe('include');
    expect(requests[0]?.init?.body).toBeUndefined();
    expect(requests[0]?.init?.headers).toBeUndefined();
  });

  it('sends a given body as JSON', async () => {
    const requests = mockFetch({ 'POST /api/auth/accept-terms': { body: { ok: true } } });
    await api.auth.acceptTerms();
    expect(requests[0]?.init?.credentials).toBe('include');
    expect(requests[0]?.init?.headers).toEqual({ 'Content-Type': 'application/json' });
    expect(requests[0]?.json).toEqual({ hasAcceptedTerms: true });
  });

  it('turns a non-ok response into an ApiError "status: body text"', async () => {
    mockFetch({ 'POST /api/contact': { status: 400, text: '{"message":"Subject is required"}' } });
    const error = await api.contact.send({ name: '', email: '', subject: '', message: '' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'ApiError',
      message: '400: {"message":"Subject is required"}',
      status: 400,
      body: '{"message":"Subject is required"}',
      data: { message: 'Subject is required' },
    });
  });

  it('uses the status text when the error body is empty', async () => {
    mockFetch({ 'GET /api/auth/user': { status: 401, text: '', statusText: 'Unauthorized' } });
    const error = await api.auth.currentUser().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('401: Unauthorized');
    expect((error as ApiError).body).toBe('');
    expect((error as ApiError).data).toBeUndefined();
  });

  it('parses JSON answers and treats an empty answer as undefined', async () => {
    mockFetch({ 'GET /api/photos': { body: [{ id: 1, filename: 'a.jpg' }] }, 'DELETE /api/photos/1': { status: 204 } });
    await expect(api.photos.list()).resolves.toEqual([{ id: 1, filename: 'a.jpg' }]);
    await expect(api.photos.remove(1)).resolves.toBeUndefined();
  });

  it('builds the gallery URL with page and limit', async () => {
    const requests = mockFetch({ 'GET /api/gallery/new-today?page=2&limit=9': { body: { photos: [], total: 0, totalPages: 0 } } });
    await api.gallery.page('new-today', 2, 9);
    expect(requests[0]?.url).toBe('/api/gallery/new-today?page=2&limit=9');
  });
});

describe('photo, user and storage-setup calls', () => {
  it('calls the documented endpoints with the documented bodies', async () => {
    const bars = [{ x: 1, y: 2, width: 30, height: 10 }];
    const requests = mockFetch({
      'POST /api/photos/7/privacy-bars': { body: { bars } },
      'GET /api/photos/7/privacy-bars': { body: { bars } },
      'PATCH /api/photos/7': { body: { id: 7 } },
      'DELETE /api/photos/7': { status: 204 },
      'GET /api/user/photos': { body: [] },
      'GET /api/google-drive/auth-url': { body: { authUrl: 'https://accounts.example/auth' } },
      'POST /api/google-drive/exchange-token': { body: { refreshToken: 'r-1' } },
    });
    await expect(api.photos.setPrivacyBars(7, bars)).resolves.toEqual({ bars });
    await expect(api.photos.getPrivacyBars(7)).resolves.toEqual({ bars });
    await api.photos.update(7, { description: 'Wall' });
    await expect(api.photos.remove(7)).resolves.toBeUndefined();
    await expect(api.user.photos()).resolves.toEqual([]);
    await expect(api.googleDrive.authUrl()).resolves.toEqual({ authUrl: 'https://accounts.example/auth' });
    await expect(api.googleDrive.exchangeToken('c-1')).resolves.toEqual({ refreshToken: 'r-1' });
    expect(requests.map((request) => [request.method, request.url, request.json])).toEqual([
      ['POST', '/api/photos/7/privacy-bars', { bars }],
      ['GET', '/api/photos/7/privacy-bars', undefined],
      ['PATCH', '/api/photos/7', { description: 'Wall' }],
      ['DELETE', '/api/photos/7', undefined],
      ['GET', '/api/user/photos', undefined],
      ['GET', '/api/google-drive/auth-url', undefined],
      ['POST', '/api/google-drive/exchange-token', { code: 'c-1' }],
    ]);
  });
});

describe('admin calls', () => {
  it('calls the documented endpoints with the documented bodies', async () => {
    const requests = mockFetch({
      'GET /api/admin/stats': { body: { pendingReviews: 1, approvedToday: 0, rejectedToday: 0, totalPhotos: 1 } },
      'GET /api/admin/photos/approved-today?page=2&limit=12': { body: { photos: [], total: 0, totalPages: 0 } },
      'PATCH /api/admin/photos/4/status': { body: { id: 4 } },
      'DELETE /api/admin/photos/4': { status: 204 },
      'POST /api/admin/cleanup/orphaned': { body: { message: 'Removed 0 files', removed: 0, failed: 0 } },
      'GET /api/admin/users?page=1&limit=20&q=ada+l': { body: { users: [], total: 0, totalPages: 0 } },
      'PATCH /api/admin/users/a%2Fb': { body: { id: 'a/b' } },
      'DELETE /api/admin/users/a%2Fb': { status: 204 },
      'GET /api/admin/contact-forms?status=in_progress&page=3&limit=20': { body: { items: [] } },
      'PATCH /api/admin/contact-forms/9/status': { body: { id: 9 } },
    });
    await api.admin.stats();
    await api.admin.photos('approved-today', 2, 12);
    await api.admin.review({ id: 4, status: 'rejected', rejectionReason: 'Blurry' });
    await api.admin.removePhoto(4);
    await api.admin.cleanup('orphaned');
    await api.admin.users({ page: 1, limit: 20, query: '  ada l ' });
    await api.admin.updateUser('a/b', { isEnabled: false });
    await api.admin.removeUser('a/b');
    await api.admin.contactForms('in_progress', 3, 20);
    await api.admin.setContactFormStatus(9, 'resolved');
    expect(requests.map((request) => [request.method, request.url, request.json])).toEqual([
      ['GET', '/api/admin/stats', undefined],
      ['GET', '/api/admin/photos/approved-today?page=2&limit=12', undefined],
      ['PATCH', '/api/admin/photos/4/status', { status: 'rejected', rejectionReason: 'Blurry' }],
      ['DELETE', '/api/admin/photos/4', undefined],
      ['POST', '/api/admin/cleanup/orphaned', undefined],
      ['GET', '/api/admin/users?page=1&limit=20&q=ada+l', undefined],
      ['PATCH', '/api/admin/users/a%2Fb', { isEnabled: false }],
      ['DELETE', '/api/admin/users/a%2Fb', undefined],
      ['GET', '/api/admin/contact-forms?status=in_progress&page=3&limit=20', undefined],
      ['PATCH', '/api/admin/contact-forms/9/status', { status: 'resolved' }],
    ]);
    // A held review decision may be sent as the page goes away.
    expect(requests[2]?.init?.keepalive).toBe(true);
    expect(requests[0]?.init?.keepalive).toBeUndefined();
  });

  it('calls the review desk, bulk approval, reversal, reason template and figures endpoints', async () => {
    const template = { label: 'Blurry', text: 'The photo is too blurry.' };
    const requests = mockFetch({
      'POST /api/admin/photos/approvals': { body: { approved: [1], failed: [{ photoId: 2, message: 'Gone' }] } },
      'POST /api/admin/photos/5/reversal': { body: { id: 5 } },
      'POST /api/admin/desk/next': { body: { item: null, waiting: 0 } },
      'POST /api/admin/desk/claims/5/renewal': { body: { photoId: 5, expiresAt: '2025-07-30T10:02:00.000Z' } },
      'DELETE /api/admin/desk/claims/5': { status: 204 },
      'GET /api/admin/reason-templates': { body: { templates: [] } },
      'POST /api/admin/reason-templates': { status: 201, body: { id: 't/1', ...template } },
      'PUT /api/admin/reason-templates/t%2F1': { body: { id: 't/1', ...template } },
      'DELETE /api/admin/reason-templates/t%2F1': { status: 204 },
      'GET /api/admin/review-figures?days=30': { body: { days: 30 } },
    });
    await expect(api.admin.bulkApprove([1, 2])).resolves.toEqual({ approved: [1], failed: [{ photoId: 2, message: 'Gone' }] });
    await api.admin.reverseDecision(5, { decision: 'remove', reason: 'Shows a face' });
    await expect(api.admin.deskNext({ skipped: [3], deciding: [4] })).resolves.toEqual({ item: null, waiting: 0 });
    await api.admin.renewDeskClaim(5);
    await expect(api.admin.releaseDeskClaim(5)).resolves.toBeUndefined();
    await api.admin.reasonTemplates();
    await api.admin.createReasonTemplate(template);
    await api.admin.updateReasonTemplate('t/1', template);
    await api.admin.deleteReasonTemplate('t/1');
    await api.admin.reviewFigures(30);
    expect(requests.map((request) => [request.method, request.url, request.json])).toEqual([
      ['POST', '/api/admin/photos/approvals', { photoIds: [1, 2] }],
      ['POST', '/api/admin/photos/5/reversal', { decision: 'remove', reason: 'Shows a face' }],
      ['POST', '/api/admin/desk/next', { skipped: [3], deciding: [4] }],
      ['POST', '/api/admin/desk/claims/5/renewal', undefined],
      ['DELETE', '/api/admin/desk/claims/5', undefined],
      ['GET', '/api/admin/reason-templates', undefined],
      ['POST', '/api/admin/reason-templates', template],
      ['PUT', '/api/admin/reason-templates/t%2F1', template],
      ['DELETE', '/api/admin/reason-templates/t%2F1', undefined],
      ['GET', '/api/admin/review-figures?days=30', undefined],
    ]);
    // Releasing a claim happens as the admin leaves the page.
    expect(requests[4]?.init?.keepalive).toBe(true);
  });

  it('leaves the users search out when it is blank', async () => {
    const requests = mockFetch({ 'GET /api/admin/users?page=2&limit=20': { body: { users: [], total: 0, totalPages: 0 } } });
    await api.admin.users({ page: 2, limit: 20, query: '   ' });
    expect(requests[0]?.url).toBe('/api/admin/users?page=2&limit=20');
  });
});

describe('ApiError', () => {
  it('formats its message from the status and the body, else the status text', () => {
    expect(new ApiError(500, 'boom', 'Internal Server Error').message).toBe('500: boom');
    expect(new ApiError(502, '', 'Bad Gateway').message).toBe('502: Bad Gateway');
    expect(new ApiError(503, '').message).toBe('503: ');
  });

  it('parses a JSON body into data and leaves other bodies undefined', () => {
    expect(new ApiError(400, '{"message":"Nope","field":"x"}').data).toEqual({ message: 'Nope', field: 'x' });
    expect(new ApiError(500, '<html>oops</html>').data).toBeUndefined();
  });

  it('extracts the server message from a JSON body, else falls back', () => {
    expect(new ApiError(400, '{"message":"Already accepted"}').serverMessage('fallback')).toBe('Already accepted');
    expect(new ApiError(500, 'Internal Server Error').serverMessage('fallback')).toBe('fallback');
    expect(new ApiError(400, '{"error":"x"}').serverMessage('fallback')).toBe('fallback');
    expect(new ApiError(400, '{"message":""}').serverMessage('fallback')).toBe('fallback');
    expect(new ApiError(400, '{"message":42}').serverMessage('fallback')).toBe('fallback');
    expect(new ApiError(400, '"message"').serverMessage('fallback')).toBe('fallback');
  });

  it('backs the error helpers', () => {
    expect(isUnauthorizedError(new ApiError(401, 'Unauthorized'))).toBe(true);
    expect(isUnauthorizedError(new ApiError(403, '{"message":"Account disabled"}'))).toBe(false);
    expect(isUnauthorizedError(new Error('401: Unauthorized'))).toBe(false);
    expect(isUnauthorizedError('401: not an Error')).toBe(false);
    expect(getServerMessage(new ApiError(409, '{"message":"Taken"}'), 'fallback')).toBe('Taken');
    expect(getServerMessage(new TypeError('Failed to fetch'), 'fallback')).toBe('fallback');
  });
});
