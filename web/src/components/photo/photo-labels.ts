import type { GalleryPhoto } from '@/lib/types';
import { getUploaderName } from '@/lib/user';

/** The uploader by the display-name rule; an anonymous one is `User {id}` (SPEC §3). */
export function photoUploaderName(photo: Pick<GalleryPhoto, 'user' | 'userId'>): string {
  return getUploaderName(photo.user, photo.userId);
}

/** The image's text alternative: its description, else who shared it. */
export function photoAlt(photo: Pick<GalleryPhoto, 'user' | 'userId' | 'description'>): string {
  return photo.description?.trim() || `Photo by ${photoUploaderName(photo)}`;
}
