import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api';
import { UserPhotoEditError } from '@/queries/user-photos';
import { editFailureToast } from './mutation-feedback';

describe('a failed privacy-bar save', () => {
  it('shows the server message when the server answered', () => {
    const error = new UserPhotoEditError('privacyBars', new ApiError(400, JSON.stringify({ message: 'Bars must lie inside the image' }), 'Bad Request'));
    expect(editFailureToast(error)).toEqual({ title: 'Failed to Save Privacy Bars', description: 'Bars must lie inside the image' });
  });

  it('says so plainly when no answer came back', () => {
    expect(editFailureToast(new UserPhotoEditError('privacyBars', new TypeError('Failed to fetch')))).toEqual({
      title: 'Error',
      description: 'Failed to save privacy bars. Please try again.',
    });
  });
});

describe('a failed description save', () => {
  it('asks to try again, whatever the server said', () => {
    const error = new UserPhotoEditError('description', new ApiError(400, JSON.stringify({ message: 'Too long' }), 'Bad Request'));
    expect(editFailureToast(error)).toEqual({ title: 'Error', description: 'Failed to update photo. Please try again.' });
  });
});
