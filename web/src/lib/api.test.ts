import { describe, expect, it } from 'vitest';
import { mockFetch } from '@/test/fetch-mock';
import { api, apiJson, apiRequest, getErrorStatus, getServerMessage, isUnauthorizedError } from './api';

describe('API client', () => {
  it('sends credentials and no body or content type when none is given', async () => {
    const requests = mockFetch({ 'GET /api/photos': { body: [] } });
    await apiRequest('GET', '/api/photos');
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

  it('turns a non-ok response into "status: body text"', async () => {
    mockFetch({ 'POST /api/contact': { status: 400, text: '{"message":"Subject is required"}' } });
    await expect(apiRequest('POST', '/api/contact', {})).rejects.toThrow('400: {"message":"Subject is required"}');
  });

  it('uses the status text when the error body is empty', async () => {
    mockFetch({ 'GET /api/auth/user': { status: 401, text: '', statusText: 'Unauthorized' } });
    await expect(api.auth.currentUser()).rejects.toThrow(/^401: Unauthorized$/);
  });

  it('parses JSON answers and treats an empty answer as undefined', async () => {
    mockFetch({ 'GET /api/photos': { body: [{ id: 1, filename: 'a.jpg' }] }, 'DELETE /api/photos/1': { status: 204 } });
    await expect(api.photos.list()).resolves.toEqual([{ id: 1, filename: 'a.jpg' }]);
    await expect(apiJson('DELETE', '/api/photos/1')).resolves.toBeUndefined();
  });

  it('builds the gallery URL with page and limit', async () => {
    const requests = mockFetch({ 'GET /api/gallery/new-today?page=2&limit=9': { body: { photos: [], total: 0, totalPages: 0 } } });
    await api.gallery.page('new-today', 2, 9);
    expect(requests[0]?.url).toBe('/api/gallery/new-today?page=2&limit=9');
  });
});

describe('error helpers', () => {
  it('recognises 401 errors by their "401: " prefix', () => {
    expect(isUnauthorizedError(new Error('401: Unauthorized'))).toBe(true);
    expect(isUnauthorizedError(new Error('403: {"message":"Account disabled"}'))).toBe(false);
    expect(isUnauthorizedError(new Error('4010: odd'))).toBe(false);
    expect(isUnauthorizedError('401: not an Error')).toBe(false);
  });

  it('reads the status of an API error', () => {
    expect(getErrorStatus(new Error('404: Not Found'))).toBe(404);
    expect(getErrorStatus(new Error('network down'))).toBeUndefined();
  });

  it('extracts the server message from a JSON body, else falls back', () => {
    expect(getServerMessage(new Error('400: {"message":"Already accepted"}'), 'fallback')).toBe('Already accepted');
    expect(getServerMessage(new Error('500: Internal Server Error'), 'fallback')).toBe('fallback');
    expect(getServerMessage(new Error('400: {"error":"x"}'), 'fallback')).toBe('fallback');
    expect(getServerMessage(new TypeError('Failed to fetch'), 'fallback')).toBe('fallback');
  });
});
