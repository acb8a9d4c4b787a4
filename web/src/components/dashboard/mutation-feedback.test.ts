import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api';
import { getToasts } from '@/lib/toast';
import { UserPhotoEditError } from '@/queries/user-photos';
import { toastEditFailure } from './mutation-feedback';

const latest = () => getToasts().at(-1);

describe('a failed privacy-bar save', () => {
  it('shows the server message when the server answered', () => {
    toastEditFailure(new UserPhotoEditError('privacyBars', new ApiError(400, JSON.stringify({ message: 'Bars must lie inside the image' }), 'Bad Request')));
    expect(latest()).toMatchObject({ title: 'Failed to Save Privacy Bars', description: 'Bars must lie inside the image' });
  });

  it('says so plainly when no answer came back', () => {
    toastEditFailure(new UserPhotoEditError('privacyBars', new TypeError('Failed to fetch')));
    expect(latest()).toMatchObject({ title: 'Error', description: 'Failed to save privacy bars. Please try again.' });
  });
});
