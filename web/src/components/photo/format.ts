import type { GalleryPhoto } from '@/lib/types';
import { getUploaderName } from '@/lib/user';

/** SPEC §9: ratings show one decimal. */
export function formatAverage(rating: number | null | undefined): string {
  return (typeof rating === 'number' && Number.isFinite(rating) ? rating : 0).toFixed(1);
}

export function formatVoteCount(count: number | null | undefined): string {
  const value = typeof count === 'number' && Number.isFinite(count) ? count : 0;
  return `${value.toLocaleString('en-US')} ${value === 1 ? 'vote' : 'votes'}`;
}

/** The uploader by the display-name rule; an anonymous one is `User {id}` (SPEC §3). */
export function photoUploaderName(photo: Pick<GalleryPhoto, 'user' | 'userId'>): string {
  return getUploaderName(photo.user, photo.userId);
}

/** The image's text alternative: its description, else who shared it. */
export function photoAlt(photo: Pick<GalleryPhoto, 'user' | 'userId' | 'description'>): string {
  return photo.description?.trim() || `Photo by ${photoUploaderName(photo)}`;
}
