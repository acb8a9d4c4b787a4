import { describe, expect, it, vi } from 'vitest';
import { mockXhr } from '@/test/xhr-mock';
import { ApiError, api, buildPhotoUploadForm } from './api';
import { progressOf, uploadWithProgress } from './upload';

const file = () => new File(['crack'], 'wall.jpg', { type: 'image/jpeg' });

describe('uploadWithProgress', () => {
  it('posts the form with credentials, reports progress and resolves with the JSON answer', async () => {
    const requests = mockXhr({
      'POST /api/photos': { status: 201, body: { id: 5, filename: 'a.jpg' }, progress: [[50, 200], [200, 200]] },
    });
    const onProgress = vi.fn();
    await expect(api.photos.upload(file(), { description: '  A crack  ', altText: ' A long crack across a brick wall ' }, onProgress)).resolves.toEqual({ id: 5, filename: 'a.jpg' });
    expect(requests).toHaveLength(1);
    expect(requests[0]?.withCredentials).toBe(true);
    expect(requests[0]?.form?.get('photo')).toBeInstanceOf(File);
    expect((requests[0]?.form?.get('photo') as File).name).toBe('wall.jpg');
    expect(requests[0]?.form?.get('description')).toBe('A crack');
    expect(requests[0]?.form?.get('altText')).toBe('A long crack across a brick wall');
    // The text fields come before the file, so the server has them before the bytes stream in.
    expect([...(requests[0]?.form?.keys() ?? [])]).toEqual(['description', 'altText', 'photo']);
    expect(onProgress.mock.calls.map(([progress]) => progress)).toEqual([
      { loaded: 50, total: 200, percent: 25 },
      { loaded: 200, total: 200, percent: 100 },
    ]);
  });

  it('leaves out a blank description and alt text', () => {
    const blank = buildPhotoUploadForm(file(), { description: '   ', altText: ' \n ' });
    expect(blank.has('description')).toBe(false);
    expect(blank.has('altText')).toBe(false);
    expect(buildPhotoUploadForm(file()).has('description')).toBe(false);
    expect(buildPhotoUploadForm(file()).has('altText')).toBe(false);
  });

  it('rejects a non-2xx answer with the same ApiError as the JSON client', async () => {
    mockXhr({ 'POST /api/photos': { status: 413, text: '{"message":"File too large"}', statusText: 'Payload Too Large' } });
    const error = await api.photos.upload(file()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 413, message: '413: {"message":"File too large"}' });
    expect((error as ApiError).serverMessage('fallback')).toBe('File too large');
  });

  it('uses the status text for an empty error body', async () => {
    mockXhr({ 'POST /api/photos': { status: 401, text: '', statusText: 'Unauthorized' } });
    await expect(api.photos.upload(file())).rejects.toThrow(/^401: Unauthorized$/);
  });

  it('rejects network failures and aborts with plain errors', async () => {
    mockXhr({ 'POST /api/photos': { networkError: true } });
    await expect(uploadWithProgress('/api/photos', new FormData())).rejects.toThrow(TypeError);

    mockXhr({ 'POST /api/photos': { status: 201, body: {} } });
    const controller = new AbortController();
    const pending = uploadWithProgress('/api/photos', new FormData(), { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('computes whole percentages', () => {
    expect(progressOf(1, 3)).toEqual({ loaded: 1, total: 3, percent: 33 });
    expect(progressOf(5, 0).percent).toBe(0);
  });
});
